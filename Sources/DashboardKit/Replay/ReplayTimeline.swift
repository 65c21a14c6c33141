/// Where a replay is in its recording, as a value: which entries were played, the position,
/// the speed and whether it is paused; every change takes the clock's reading (`now`), so that
/// tests drive it with instants of their own. Changes return the entries to play
/// (``Playing``); the ``ReplayPlayer`` plays them on the session.
///
/// Entries play in the recording's order. Their times need not grow (a flow event carries the
/// time it happened, a job event the time the session heard of it), so each entry is due at
/// the latest time among it and those before it: playing up to a position plays a prefix.
package struct ReplayTimeline: Sendable {
    /// What a change asks the player to do.
    package enum Playing: Sendable, Equatable {
        /// Play these entries after those played.
        case append(Range<Int>)
        /// Forget what was played and play the first `count` entries again (a seek back).
        case rebuild(count: Int)
    }

    /// The speeds `+` and `-` move between: an eighth to 64 times as fast as recorded.
    package static let speeds: ClosedRange<Double> = 0.125...64
    /// How far `[` and `]` jump.
    package static let jump = Duration.seconds(10)

    /// When each entry is due: its time, or an earlier entry's later one.
    private let due: [Duration]
    /// How many entries were played: always those due at or before ``position(at:)``.
    package private(set) var played = 0
    /// Recorded seconds per second.
    package private(set) var speed: Double
    /// True while paused.
    package private(set) var paused = false
    /// The position at ``anchor``.
    private var anchorPosition = Duration.zero
    /// When the position was ``anchorPosition``.
    private var anchor: ContinuousClock.Instant

    /// A timeline of entries at `times`, at their start, playing at `speed` from `now`.
    package init(times: [Duration], speed: Double, now: ContinuousClock.Instant) {
        var latest = Duration.zero
        due = times.map { time in
            latest = max(latest, time)
            return latest
        }
        self.speed = min(max(speed, Self.speeds.lowerBound), Self.speeds.upperBound)
        anchor = now
    }

    /// The recording's length: when its last entry is due.
    package var length: Duration { due.last ?? .zero }

    /// How many entries there are.
    package var count: Int { due.count }

    /// Where the replay is at `now`: it moves at ``speed`` while playing, up to ``length``.
    package func position(at now: ContinuousClock.Instant) -> Duration {
        guard !paused else { return anchorPosition }
        return min(anchorPosition + (now - anchor) * speed, length)
    }

    /// When the next entry is due (or the end reached), while playing; nil when paused.
    package func nextWake() -> ContinuousClock.Instant? {
        guard !paused else { return nil }
        let target = played < due.count ? due[played] : length
        return anchor + (target - anchorPosition) / speed
    }

    /// Plays what is due at `now`; at the end, pauses there.
    package mutating func catchUp(at now: ContinuousClock.Instant) -> Playing {
        let position = position(at: now)
        let from = played
        played = dueCount(at: position)
        if position >= length { pause(at: now) }
        return .append(from..<played)
    }

    /// Carries out a key's action at `now`.
    package mutating func perform(_ action: ReplayAction, at now: ContinuousClock.Instant) -> Playing {
        let position = position(at: now)
        switch action {
        case .togglePause: return togglePause(at: now)
        case .faster: setSpeed(speed * 2, at: now)
        case .slower: setSpeed(speed / 2, at: now)
        case .nextEvent: return seek(to: due.first { $0 > position } ?? length, at: now)
        case .previousEvent: return seek(to: due.last { $0 < position } ?? .zero, at: now)
        case .jumpForward: return seek(to: position + Self.jump, at: now)
        case .jumpBack: return seek(to: position - Self.jump, at: now)
        case .start: return seek(to: .zero, at: now)
        case .end: return seek(to: length, at: now)
        }
        return .append(played..<played)
    }

    /// Moves to `target` (within the recording), playing on from there if it was playing.
    package mutating func seek(to target: Duration, at now: ContinuousClock.Instant) -> Playing {
        let target = min(max(target, .zero), length)
        (anchorPosition, anchor) = (target, now)
        let count = dueCount(at: target)
        defer { played = count }
        return count >= played ? .append(played..<count) : .rebuild(count: count)
    }

    /// Pauses, or plays on; at the end, plays again from the start.
    private mutating func togglePause(at now: ContinuousClock.Instant) -> Playing {
        if !paused {
            pause(at: now)
            return .append(played..<played)
        }
        paused = false
        guard anchorPosition >= length, length > .zero else {
            anchor = now
            return .append(played..<played)
        }
        return seek(to: .zero, at: now)
    }

    private mutating func pause(at now: ContinuousClock.Instant) {
        (anchorPosition, anchor, paused) = (position(at: now), now, true)
    }

    private mutating func setSpeed(_ speed: Double, at now: ContinuousClock.Instant) {
        (anchorPosition, anchor) = (position(at: now), now)
        self.speed = min(max(speed, Self.speeds.lowerBound), Self.speeds.upperBound)
    }

    /// How many entries are due at or before `position`.
    private func dueCount(at position: Duration) -> Int {
        // `due` never decreases: the first entry due after `position` ends the prefix.
        var low = 0, high = due.count
        while low < high {
            let middle = (low + high) / 2
            if due[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
