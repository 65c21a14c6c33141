import Logging

/// Tuning for a ``JobStore``; the defaults suit a desktop or server program.
public struct JobStoreOptions: Sendable {
    /// How long a parked job (``StoredJobOutcome/retryWhenReady``) waits at most before it is
    /// tried again without a ``JobStore/conditionsChanged()`` call. Default 60 s.
    public var recheckInterval: Duration = .seconds(60)
    /// How often idle workers look for jobs that another process submitted (this store's own
    /// submissions wake them at once). Default 100 ms.
    public var pollInterval: Duration = .milliseconds(100)
    /// The most jobs a worker claims in one transaction. Workers start at one and double while
    /// jobs finish in under a millisecond, so slow jobs spread over all workers and fast ones
    /// are claimed in batches. Default 64.
    public var maxClaimBatch: Int = 64
    /// A worker commits the outcomes of its batch together, but never holds a finished outcome
    /// longer than this before committing it. Default 2 ms.
    public var maxCommitDelay: Duration = .milliseconds(2)
    /// How long connecting to a database server, or one request to it, may go unanswered
    /// before it fails with an error (PostgreSQL: a request lost in a server restart must not
    /// hold up a worker or ``JobStore/stop()`` for ever; it is tried again where the store
    /// retries). Raise it for a slow link or a heavily loaded server. SQLite, in this process,
    /// has no server to wait for: it waits up to 10 s for another process's write lock.
    /// Default 10 s.
    public var requestTimeout: Duration = .seconds(10)
    /// Where the store logs what its workers do, each record with the job's id and kind: a job
    /// failed for good and a database error at `error`, a job recovered from a dead worker
    /// (and a durable flow recovered from a dead process) at `notice`, a retry, a parked,
    /// requeued or cancelled job at `info`, each job's submission, start and success at `debug`.
    /// Default: logs nothing, and costs nothing.
    public var logger = Logger(label: "taskflow.store", factory: { _ in SwiftLogNoOpLogHandler() })
    /// What the workers wait on and date their writes by: the real clock, except in tests.
    package var clock = StoreClock.system

    /// The defaults.
    public init() {}
}
