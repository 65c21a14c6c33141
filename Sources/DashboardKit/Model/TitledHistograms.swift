/// A ``DurationHistogram`` per title (a flow's, a step's or a job's), at most ``capacity`` of
/// them: a new title beyond the cap replaces the one updated least recently. Titles come from
/// programs and scenarios, so their number is unbounded (a title with an id in it is new every
/// time); the cap is what keeps the statistics' memory fixed.
package struct TitledHistograms: Sendable, Hashable {
    /// The most titles kept.
    package let capacity: Int
    private var entries: [String: Entry] = [:]
    /// Increases with every record: an entry's stamp says how recently it was updated.
    private var clock: UInt64 = 0

    private struct Entry: Sendable, Hashable {
        var histogram = DurationHistogram()
        var updated: UInt64
    }

    /// The default ``capacity``: more titles than a screen of flows shows, few enough that the
    /// histograms stay a few megabytes.
    package static let defaultCapacity = 256

    /// No title yet; at most `capacity` (at least one) titles kept.
    package init(capacity: Int = TitledHistograms.defaultCapacity) {
        self.capacity = max(capacity, 1)
    }

    /// Counts a run of `title` that took `duration`, evicting the least recently updated title
    /// when `title` is new and the cap is reached.
    package mutating func record(_ duration: Duration, for title: String) {
        clock += 1
        if entries[title] == nil, entries.count >= capacity, let stalest = entries.min(by: { $0.value.updated < $1.value.updated }) {
            entries[stalest.key] = nil
        }
        entries[title, default: Entry(updated: clock)].histogram.record(duration)
        entries[title]?.updated = clock
    }

    /// The runs of `title`, if it is kept.
    package subscript(title: String) -> DurationHistogram? {
        entries[title]?.histogram
    }

    /// The titles kept, in no particular order.
    package var titles: some Collection<String> { entries.keys }

    /// How many titles are kept (never more than ``capacity``).
    package var count: Int { entries.count }
}
