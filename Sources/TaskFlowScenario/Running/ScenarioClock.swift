/// What a run waits with. The runner never blocks a thread: every simulated duration is a
/// suspension on this clock, already divided by the speed factor. Tests may inject their own.
package protocol ScenarioClock: Sendable {
    /// Suspends for `duration`; throws `CancellationError` if the waiting task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock (`ContinuousClock`): the default.
package struct ContinuousScenarioClock: ScenarioClock {
    /// Creates the real clock.
    package init() {}

    /// Sleeps on `ContinuousClock`.
    package func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}
