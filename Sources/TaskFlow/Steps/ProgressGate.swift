/// Decides which progress reports become events, so that a step reporting a million times a
/// second costs observers a few dozen events: a report passes when it reaches a new whole
/// percent *and* at least `interval` has passed since the last one that passed; reaching 100 %
/// always passes.
/// Copies share the same memory of the last report.
struct ProgressGate: Sendable {
    static let interval = Duration.milliseconds(20)

    private struct Last {
        var percent = -1
        var at: ContinuousClock.Instant?
    }

    private let last = Protected(Last())

    /// The clamped fraction to publish, or nil to drop this report.
    func admit(_ fraction: Double) -> Double? {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let percent = Int(clamped * 100)
        let now = ContinuousClock.now
        return last.withLock { last -> Double? in
            guard percent != last.percent else { return nil }
            if percent < 100, let at = last.at, now - at < Self.interval { return nil }
            last = Last(percent: percent, at: now)
            return clamped
        }
    }
}
