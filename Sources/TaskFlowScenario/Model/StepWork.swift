/// The simulated work of a `main` or `task` step: how long it takes, whether and how long it
/// takes to revert, and whether it fails on purpose.
package struct StepWork: Sendable, Equatable {
    /// How long the step's apply takes (before the speed factor).
    package var duration: Duration
    /// How long the revert takes; nil when the step registers no revert. `.zero` is an instant
    /// revert (always the case for `main` steps, whose revert runs synchronously).
    package var revert: Duration?
    /// Whether a task reports progress while it runs.
    package var reportsProgress: Bool
    /// A failure on purpose, if any.
    package var failure: FailureInjection?

    /// Creates a step's work.
    package init(duration: Duration = .zero, revert: Duration? = nil, reportsProgress: Bool = true, failure: FailureInjection? = nil) {
        self.duration = duration
        self.revert = revert
        self.reportsProgress = reportsProgress
        self.failure = failure
    }
}

/// How a step fails on purpose.
package enum FailureInjection: Sendable, Equatable {
    /// Always fails, after this fraction (0...1) of its duration.
    case at(Double)
    /// Fails with this probability (0...1), decided from the run's seed and the step's place in
    /// the scenario, so the same seed fails the same steps whatever the timing.
    case chance(Double)
}
