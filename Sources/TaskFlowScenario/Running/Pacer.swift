/// Waits simulated durations on a clock, scaled by the run's speed.
struct Pacer: Sendable {
    let clock: any ScenarioClock
    let speed: Double

    /// Waits `simulated / speed`; returns at once for nothing to wait.
    func wait(_ simulated: Duration) async throws {
        guard simulated > .zero else { return }
        try await clock.sleep(for: simulated / speed)
    }
}
