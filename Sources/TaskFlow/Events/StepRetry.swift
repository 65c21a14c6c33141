/// A flow step's failed attempt and the one that comes next, as ``FlowEvent/stepRetrying(_:_:)``
/// reports it: enough to show "attempt 2/3, next in 400 ms".
public struct StepRetry: Sendable, Hashable {
    /// The step's title as given to `task(title:retry:…)`; attempts after the first run as steps
    /// titled "`title` (attempt 2/3)".
    public let title: String
    /// The number of the attempt that comes next, from 2.
    public let nextAttempt: Int
    /// How many attempts there can be in all.
    public let maxAttempts: Int
    /// How long the step waits before the next attempt, jitter applied.
    public let delay: Duration
    /// Why the last attempt failed: its error's description.
    public let error: String

    /// Describes a retry.
    public init(title: String, nextAttempt: Int, maxAttempts: Int, delay: Duration, error: String) {
        self.title = title
        self.nextAttempt = nextAttempt
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.error = error
    }
}
