/// How many things happened in each of the last ``window`` whole seconds of the dashboard's
/// clock: a ring of counters, so memory is fixed however much happens. Seconds go by as the
/// clock is told (``record(at:)``, ``counts(endingAt:)``), never by the wall clock, so a test or
/// a replay drives it exactly.
package struct PerSecondCounts: Sendable, Hashable {
    /// How many seconds are kept: a minute, the span the header's sparklines show.
    package static let window = 60

    private var slots = [Int](repeating: 0, count: PerSecondCounts.window)
    /// The latest second counted into; slots of seconds before `latest - window + 1` are stale.
    private var latest: Int64 = 0

    /// Nothing counted yet.
    package init() {}

    /// Counts one event at `time`. One older than the window (as of the latest second counted)
    /// is dropped: it would fall out of every sparkline anyway.
    package mutating func record(at time: Duration, count: Int = 1) {
        let second = Self.second(of: time)
        if second > latest {
            // The seconds skipped since the last event had nothing: clear their slots, or the
            // whole ring when more than a window went by.
            if second - latest >= Int64(Self.window) {
                slots = [Int](repeating: 0, count: Self.window)
            } else {
                for skipped in (latest + 1)...second { slots[Self.slot(skipped)] = 0 }
            }
            latest = second
        }
        guard second > latest - Int64(Self.window) else { return }
        slots[Self.slot(second)] += count
    }

    /// The counts of the ``window`` seconds ending with the one `now` falls in, oldest first:
    /// seconds with nothing counted (or beyond what was kept) are zeros.
    package func counts(endingAt now: Duration) -> [Int] {
        let last = Self.second(of: now)
        return ((last - Int64(Self.window) + 1)...last).map { second in
            // Only seconds still in the ring (not overwritten, not in the future) count.
            second <= latest && second > latest - Int64(Self.window) && second >= 0 ? slots[Self.slot(second)] : 0
        }
    }

    /// The total over the ``window`` seconds ending with the one `now` falls in.
    package func total(endingAt now: Duration) -> Int {
        counts(endingAt: now).reduce(0, +)
    }

    private static func second(of time: Duration) -> Int64 {
        max(time.components.seconds, 0)
    }

    private static func slot(_ second: Int64) -> Int {
        Int(second % Int64(window))
    }
}
