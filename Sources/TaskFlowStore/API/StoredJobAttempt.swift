/// What an executor is told about the run it is asked to do.
public struct StoredJobAttempt: Sendable, Hashable {
    /// The job being run.
    public let id: StoredJobID
    /// Forge's `countOfRetries`: how many counted retries (``StoredJobOutcome/retry(_:)``) came
    /// before this run. Conditional retries (``StoredJobOutcome/retryWhenReady``) and runs cut
    /// short by a crash do not count. This run is number `retries + 1` for the `RetryPolicy`.
    public let retries: Int
    /// True when the job was claimed before by a worker that died (killed process, expired
    /// lease) and may therefore have run, in part or in full, already: delivery is at least once,
    /// so an executor with side effects checks whether it did its work before doing it again.
    public let isRecovery: Bool
    /// When this worker claimed the job (workers claim several at a time, so a job may wait in
    /// its worker's batch for a moment before it runs).
    public let claimedAt: ContinuousClock.Instant

    /// An attempt as the workers build it; public so that executors can be tested on their own.
    public init(id: StoredJobID, retries: Int, isRecovery: Bool, claimedAt: ContinuousClock.Instant = .now) {
        self.id = id
        self.retries = retries
        self.isRecovery = isRecovery
        self.claimedAt = claimedAt
    }
}
