/// Decides which progress reports of one step become events, so that a step reporting a million
/// times a second costs observers a few dozen events: a report passes when it reaches a new whole
/// percent *and* at least ``interval`` has passed since the last one that passed; reaching 100 %
/// always passes. A report held back is remembered, and published when the step ends, so
/// observers always end up with the step's last value.
///
/// A plain value: its flow's record keeps one per live step, under the lock it publishes under,
/// so reports from concurrent callers reach observers in order and a step costs no lock or
/// allocation of its own for it.
struct ProgressFilter: Sendable {
    static let interval = Duration.milliseconds(20)

    private var percent = -1
    private var passedAt: ContinuousClock.Instant?
    /// The latest report that did not pass, if it is newer than the last that did.
    private var heldBack: Double?

    /// `fraction` clamped to 0...1 if it passes now; nil (and remembered) if it is held back.
    mutating func admit(_ fraction: Double, at now: ContinuousClock.Instant) -> Double? {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let percent = Self.percent(of: clamped)
        let tooSoon = passedAt.map { now - $0 < Self.interval } ?? false
        guard percent != self.percent, percent == 100 || !tooSoon else {
            heldBack = percent == self.percent ? nil : clamped
            return nil
        }
        self = ProgressFilter(percent: percent, passedAt: now)
        return clamped
    }

    /// The last report that was held back, if any: what to publish when the step ends.
    var lastHeldBack: Double? { heldBack }

    /// The whole percent of a clamped fraction. The epsilon keeps 0.29 in the 29 % bucket
    /// despite binary rounding (0.29 * 100 = 28.99…).
    private static func percent(of fraction: Double) -> Int {
        Int((fraction * 100 + 1e-9).rounded(.down))
    }
}
