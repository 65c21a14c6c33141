import Foundation
import TaskFlow
import TaskFlowSupport

/// Durable jobs (Forge): every submitted job is persisted before `submit` returns, handed to the
/// executor registered for its kind, and kept until that executor's answer is recorded.
///
/// ```swift
/// let store = try JobStore(path: "jobs.sqlite", lease: .seconds(30))
/// store.register(SendEmail.self, retry: policy) { email, attempt in
///     guard network.isUp else { return .retryWhenReady }
///     do { try await send(email); return .success } catch { return .retry(error) }
/// }
/// let id = try await store.submit(SendEmail(to: "ana@example.com"))
/// try await store.start(workers: 4)
/// ```
///
/// **Delivery is at least once.** A job runs until its executor answers, and the answer is
/// committed in one transaction with the job's row. A worker holds each job it claimed under a
/// lease that it renews every third of `lease`; if its process dies (kill -9, power cut) the job
/// becomes claimable again when the lease runs out — at once when a store on the same host
/// starts and sees that the process is gone — and runs again with ``StoredJobAttempt/isRecovery``
/// set. So nothing submitted is lost, and only jobs that were running at a crash can run twice:
/// executors with side effects make them idempotent or check first.
///
/// **Sharing a file.** Several stores, in one process or many, may use one database file (the CLI
/// submitting while the dashboard runs workers): claims take SQLite's write lock, so no job is
/// handed to two live workers; idle workers notice other processes' jobs within
/// ``JobStoreOptions/pollInterval``.
///
/// **Lifecycle** (like swift-service-lifecycle's `ServiceGroup`): `idle` → ``start(workers:)`` →
/// `starting` (dead processes' jobs recovered, this process recorded) → `running(workers)` →
/// ``stop()`` → `stopping` (no new job starts; running jobs finish and are
/// committed; unstarted claims go back to the queue) → `stopped`, for good. Submitting, listing
/// and the failed-list calls work in every state, so a program can queue jobs without running
/// them (another process may).
public final class JobStore: Sendable {
    /// Where the store is in its life; see the type's documentation.
    private enum Lifecycle {
        /// Opened; no worker started. Submitting and listing work.
        case idle
        /// ``start(workers:)`` is recovering dead processes' jobs and recording this process;
        /// a second `start` is refused, a `stop` ends the store before any worker starts.
        case starting
        /// Workers run and the heartbeat renews their leases.
        case running(WorkerPool)
        case stopping(Task<Void, Never>)
        case stopped
    }

    /// The store as watchers and messages name it: its file's path, `in memory`, or its
    /// PostgreSQL server and database with the password redacted.
    public let name: String
    let environment: WorkerEnvironment
    private let lifecycle = Protected(Lifecycle.idle)
    /// Listings' payloads, each redacted once (see ``listing(limit:)``).
    let redactedPayloads = RedactedPayloads()

    /// Opens the store in the SQLite file at `path`, creating it (owner-only permissions) if it
    /// does not exist. `lease` is how long a job claimed by a worker that died stays claimed
    /// before another worker may run it. Throws ``JobStoreError`` for a file that is not a
    /// TaskFlow job store (left untouched) or cannot be opened.
    public convenience init(path: String, lease: Duration = .seconds(30), options: JobStoreOptions = JobStoreOptions())
        throws
    {
        try self.init(path: path, access: .create, lease: lease, options: options)
    }

    /// Opens the store in the SQLite file at `path` as `access` says (only ``StoreFileAccess/create``
    /// makes a file; ``StoreFileAccess/read`` writes nothing). `whenBusy` hears, in one line,
    /// when the file's write lock is held by another process and this one waits for it.
    package convenience init(
        path: String, access: StoreFileAccess, lease: Duration = .seconds(30), options: JobStoreOptions = JobStoreOptions(),
        whenBusy: (@Sendable (String) -> Void)? = nil
    ) throws {
        let writer = try StoreFile.open(path: path, access: access, whenBusy: whenBusy)
        self.init(backend: SQLiteBackend(writer: writer, logger: options.logger), name: path.escapingControlCharacters, lease: lease, options: options)
    }

    /// A store in memory, gone with the store: for tests and previews.
    public static func inMemory(lease: Duration = .seconds(30), options: JobStoreOptions = JobStoreOptions()) throws
        -> JobStore
    {
        JobStore(
            backend: SQLiteBackend(writer: try StoreFile.openInMemory(), logger: options.logger), name: "in memory",
            lease: lease, options: options)
    }

    /// A store on any backend of this package, SQLite (this module) or PostgreSQL
    /// (`TaskFlowPostgres`), named `name` (see ``name``).
    package init(backend: any JobStoreBackend, name: String, lease: Duration, options: JobStoreOptions) {
        precondition(lease > .zero, "JobStore: the lease must be longer than zero")
        precondition(options.maxClaimBatch >= 1, "JobStore: maxClaimBatch is at least 1")
        precondition(options.pollInterval > .zero, "JobStore: pollInterval must be longer than zero")
        precondition(
            options.recheckInterval >= .zero && options.maxCommitDelay >= .zero, "JobStore: intervals cannot be negative")
        self.name = name
        environment = WorkerEnvironment(
            backend: backend, registry: ExecutorRegistry(), events: EventBroadcaster(logger: options.logger),
            doorbell: Doorbell(clock: options.clock.timer), owner: .current(), lease: lease, options: options)
    }

    deinit {
        // A store dropped while running: its workers hold only the environment, so end them
        // (they stop at their next check; their leases simply expire).
        if case .running(let pool) = lifecycle.withLock({ $0 }) {
            Task { await pool.shutdown() }
        }
        environment.events.finish()
    }

    // MARK: - Executors

    /// Registers the executor for `type`'s kind (replacing any earlier one), with the policy that
    /// decides how often and how soon a ``StoredJobOutcome/retry(_:)`` runs again. An executor
    /// that throws counts as answering `.retry(error)`. May be called before or after `start`.
    public func register<Job: StoredJob>(
        _ type: Job.Type,
        retry policy: RetryPolicy = .exponential(maxAttempts: 5, initial: .seconds(1), multiplier: 2, cap: .seconds(60)),
        executor: @escaping @Sendable (Job, StoredJobAttempt) async throws -> StoredJobOutcome
    ) {
        environment.registry.register(type, policy: policy, executor: executor)
        environment.doorbell.ring()
    }

    // MARK: - Submitting

    /// Persists `job` (pending, zero retries) and returns its id once it is committed; a
    /// read-only or full disk throws here, and nothing is queued.
    @discardableResult
    public func submit<Job: StoredJob>(_ job: Job) async throws -> StoredJobID {
        try await submit(contentsOf: [job])[0]
    }

    /// Persists all of `jobs` in one transaction — all or none — and returns their ids in order.
    @discardableResult
    public func submit<Jobs: Sequence>(contentsOf jobs: Jobs) async throws -> [StoredJobID]
    where Jobs.Element: StoredJob {
        let encoder = JSONEncoder()
        let trace = StoredTraceContext.current()
        let payloads = try jobs.map {
            NewStoredJob(kind: Jobs.Element.kind, payload: try encoder.encode($0), traceContext: trace)
        }
        return try await insert(payloads)
    }

    /// Persists a job given as its kind and JSON payload (the CLI's `jobs submit KIND JSON`).
    /// The JSON is not checked against any type here: a payload that does not decode fails its
    /// job when it runs, with the decoding error.
    @discardableResult
    public func submit(kind: String, json payload: Data) async throws -> StoredJobID {
        try await insert([NewStoredJob(kind: kind, payload: payload, traceContext: StoredTraceContext.current())])[0]
    }

    private func insert(_ jobs: [NewStoredJob]) async throws -> [StoredJobID] {
        guard !jobs.isEmpty else { return [] }
        let ids = try await environment.backend.insert(jobs, now: environment.clock.date)
        environment.events.emit(zip(ids, jobs).map { .submitted($0, kind: $1.kind) })
        environment.doorbell.ring()
        return ids
    }

    // MARK: - Observing

    /// Every change from now on, in commit order (see ``StoredJobEvent``). Each access is a new
    /// subscription; it ends when its iteration ends or the store goes away.
    public var changes: AsyncStream<StoredJobEvent> {
        environment.events.subscribe()
    }

    /// Every job in the store, failed ones included, oldest first. A store may hold millions:
    /// views list a page with ``jobs(matching:)`` instead.
    public func jobs() async throws -> [StoredJobInfo] {
        try await jobs(matching: StoredJobQuery())
    }

    /// The jobs `query` selects, in its order, at most its limit; failed ones included unless
    /// its states leave them out. Each call is one read of the store: page through a large one
    /// with ``StoredJobQuery/after``, and count the rest with ``count(matching:)``.
    public func jobs(matching query: StoredJobQuery) async throws -> [StoredJobInfo] {
        var query = query
        query.limit = query.limit.map { max($0, 0) }
        return try await info(environment.backend.list(query))
    }

    /// How many jobs `query` selects, its limit aside (its cursor counts: after a page, how
    /// many come after it).
    public func count(matching query: StoredJobQuery) async throws -> Int {
        try await environment.backend.count(query)
    }

    /// The job with this id, failed ones included; nil if the store does not hold it.
    public func job(_ id: StoredJobID) async throws -> StoredJobInfo? {
        try await environment.backend.job(id).map { info([$0])[0] }
    }

    /// How many jobs the store holds in each state (states without jobs are left out).
    public func jobCounts() async throws -> [StoredJobState: Int] {
        try await environment.backend.countByState()
    }

    /// The failed list: jobs that failed for good, with their reason (``StoredJobInfo/lastError``).
    public func failedJobs() async throws -> [StoredJobInfo] {
        try await jobs(matching: StoredJobQuery(states: [.failed]))
    }

    /// Every process running workers on this store — this one, other processes, other hosts —
    /// as their heartbeats recorded them, with the jobs each holds; by host, then pid.
    public func workerProcesses() async throws -> [StoredWorkerProcess] {
        let owner = environment.owner.encoded
        return try await environment.backend.workerProcesses().map { $0.seen(by: owner) }
    }

    private func info(_ records: [StoredJobRecord]) -> [StoredJobInfo] {
        let kinds = Set(environment.registry.kinds)
        return records.map { record in
            StoredJobInfo(
                id: record.id, kind: record.kind, state: record.state, retries: record.retries,
                submittedAt: record.submittedAt, dueAt: record.dueAt, leaseOwner: record.leaseOwner,
                lastError: record.lastError, isRecovery: record.isRecovery, hasExecutor: kinds.contains(record.kind),
                payload: record.payload, damage: record.damage)
        }
    }

    // MARK: - Steering

    /// Conditions changed (the network is back): every parked job becomes pending now, with its
    /// retry count unchanged, in this store's file — so in every process sharing it. Returns at
    /// once; the change is committed in the background and published as `requeued` events.
    public func conditionsChanged() {
        let environment = environment
        Task {
            do {
                let woken = try await environment.backend.wakeParked()
                environment.events.emit(woken.map { .requeued($0.id, kind: $0.kind) })
                environment.doorbell.ring()
            } catch {
                environment.events.emit([.storeError("waking parked jobs: \(error)")])
            }
        }
    }

    /// Queues a failed job again, with its retry count back at zero.
    /// Throws ``JobStoreError/noSuchJob(_:)`` if no failed job has this id.
    public func retryFailed(_ id: StoredJobID) async throws {
        guard let job = try await environment.backend.retryFailed(id) else { throw JobStoreError.noSuchJob(id) }
        environment.events.emit([.requeued(job.id, kind: job.kind)])
        environment.doorbell.ring()
    }

    /// Removes a job that is not running (pending, parked, scheduled or failed).
    /// Throws ``JobStoreError/jobRunning(_:)`` or ``JobStoreError/noSuchJob(_:)``.
    public func cancel(_ id: StoredJobID) async throws {
        switch try await environment.backend.cancel(id) {
        case .cancelled(let kind): environment.events.emit([.cancelled(id, kind: kind)])
        case .running: throw JobStoreError.jobRunning(id)
        case .notFound: throw JobStoreError.noSuchJob(id)
        }
    }

    /// Deletes every failed job; returns how many.
    @discardableResult
    public func purgeFailed() async throws -> Int {
        let count = try await environment.backend.purgeFailed()
        environment.events.emit([.purged(count: count)])
        return count
    }

    // MARK: - Lifecycle

    /// Re-queues the jobs that dead processes of this host left running (published as
    /// `recovered`; they run with ``StoredJobAttempt/isRecovery``), records this process in the
    /// store's list of worker processes (``workerProcesses()``), then starts `workers` workers.
    /// Allowed once, on an idle store; throws ``JobStoreError/notIdle`` otherwise, and when
    /// ``stop()`` ended the store before its workers started. If recovering or recording fails,
    /// the store is idle again and the error is thrown.
    public func start(workers: Int) async throws {
        precondition(workers >= 1, "JobStore: start needs at least one worker")
        try lifecycle.withLock { state in
            guard case .idle = state else { throw JobStoreError.notIdle }
            state = .starting
        }
        let now = environment.clock.now
        let startedAt = (instant: now, date: environment.clock.date(at: now))
        do {
            let owner = environment.owner
            let recovered = try await environment.backend.recover(ownersWhere: { owner.isCertainlyDead($0) })
            environment.publish(recovered.map { .recovered($0.id, kind: $0.kind) })
            try await environment.backend.recordHeartbeat(environment.heartbeat(workers: workers, startedAt: startedAt.date))
        } catch {
            // Nothing started: the store is idle again (unless stopped meanwhile) and may retry.
            lifecycle.withLock { state in if case .starting = state { state = .idle } }
            throw error
        }
        let started = lifecycle.withLock { state in
            guard case .starting = state else { return false }
            state = .running(WorkerPool(environment: environment, workers: workers, startedAt: startedAt))
            return true
        }
        guard started else {
            // stop() came first: no worker runs, so this process leaves the list it just joined.
            try? await environment.backend.leave(owner: environment.owner.encoded)
            throw JobStoreError.notIdle
        }
    }

    /// Whether ``stop()`` began (or the store stopped): its workers claim nothing from then on.
    var hasBegunStopping: Bool {
        lifecycle.withLock { state in
            switch state {
            case .stopping, .stopped: true
            case .idle, .starting, .running: false
            }
        }
    }

    /// Stops the workers: no job starts any more, running jobs finish and their outcomes are
    /// committed, claimed jobs that had not started go back to the queue. Returns when all that
    /// is done; calling it again (or concurrently) waits for the same shutdown.
    public func stop() async {
        let shutdown: Task<Void, Never>? = lifecycle.withLock { state in
            switch state {
            case .idle, .starting, .stopped:
                state = .stopped
                return nil
            case .stopping(let shutdown):
                return shutdown
            case .running(let pool):
                let shutdown = Task { await pool.shutdown() }
                state = .stopping(shutdown)
                return shutdown
            }
        }
        await shutdown?.value
        lifecycle.withLock { $0 = .stopped }
    }
}
