import Foundation

/// Waits simulated durations on a clock, scaled by the run's speed.
struct Pacer: Sendable {
    let clock: any ScenarioClock
    let speed: Double

    /// Waits `simulated / speed`; returns at once for nothing to wait.
    func wait(_ simulated: Duration) async throws {
        guard simulated > .zero else { return }
        try await clock.sleep(for: simulated / speed)
    }

    /// Blocks the calling thread for `simulated / speed`, on the real clock: what a blocking
    /// call (synchronous I/O, a C library) does to the thread it runs on. Only jobs of a
    /// blocking queue do this, on threads of their own.
    func block(_ simulated: Duration) {
        guard simulated > .zero else { return }
        let real = simulated / speed
        Thread.sleep(forTimeInterval: Double(real.components.seconds) + Double(real.components.attoseconds) * 1e-18)
    }
}
