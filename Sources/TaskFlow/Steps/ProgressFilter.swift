/// Decides which progress reports become events, so that a step reporting a million times a
/// second costs observers a few dozen events: a report passes when it reaches a new whole
/// percent *and* at least `interval` has passed since the last one that passed; reaching 100 %
/// always passes. A report held back is remembered, and published when the step ends, so
/// observers always end up with the step's last value. Copies share the same memory.
struct ProgressGate: Sendable {
    static let interval = Duration.milliseconds(20)

    private struct Memory {
        var percent = -1
        var at: ContinuousClock.Instant?
        /// The latest report that did not pass, if it is newer than the last that did.
        var heldBack: Double?
    }

    private let memory = Protected(Memory())

    /// Publishes `fraction` (clamped to 0...1) through `publish` if it passes. `publish` runs
    /// inside the gate, so reports from concurrent callers reach observers in order.
    func report(_ fraction: Double, publish: (Double) -> Void) {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        // The epsilon keeps 0.29 in the 29 % bucket despite binary rounding (0.29 * 100 = 28.99…).
        let percent = Int((clamped * 100 + 1e-9).rounded(.down))
        let now = ContinuousClock.now
        memory.withLock { memory in
            let tooSoon = memory.at.map { now - $0 < Self.interval } ?? false
            guard percent != memory.percent, percent == 100 || !tooSoon else {
                memory.heldBack = percent == memory.percent ? nil : clamped
                return
            }
            memory = Memory(percent: percent, at: now)
            publish(clamped)
        }
    }

    /// Publishes the last report that was held back, if any.
    func flush(publish: (Double) -> Void) {
        memory.withLock { memory in
            guard let heldBack = memory.heldBack else { return }
            memory = Memory(percent: Int((heldBack * 100 + 1e-9).rounded(.down)), at: .now)
            publish(heldBack)
        }
    }
}
