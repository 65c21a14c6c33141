import Foundation

/// The storage a ``JobStore`` runs on: the one seam between the store's semantics (executors,
/// retry policies, events, lifecycle) and a database.
///
/// `package` so that a backend in another module of this package (PostgreSQL, with
/// `FOR UPDATE SKIP LOCKED`) can implement it without it becoming public API. Every method is
/// one transaction. Claims are atomic: a job is handed to one claim at a time, and a claim of a
/// job whose lease expired bumps its claim token, so the old holder's late outcome no longer
/// matches and is dropped (fencing).
///
/// Every backend also keeps the flow journal (``FlowJournalBackend``): durable flows journal in
/// the database the jobs are in.
package protocol JobStoreBackend: FlowJournalBackend {
    /// Persists `jobs` as pending with zero retries, all or none; returns their ids in order.
    func insert(_ jobs: [NewStoredJob], now: Date) async throws -> [StoredJobID]

    /// Makes due scheduled/parked jobs pending, re-queues jobs whose lease expired (returned as
    /// `recovered`), then claims up to `limit` pending jobs of `kinds`, oldest first, for `owner`
    /// until `leaseUntil`. Claimed rows that are damaged (see ``JobRowDecoding``) are failed in
    /// the same transaction and returned as `rejected`, never as jobs. When nothing was claimed,
    /// also tells when the next job falls due.
    func claim(kinds: [String], limit: Int, owner: String, now: Date, leaseUntil: Date) async throws -> ClaimBatch

    /// Extends the leases `owner` holds on `jobs` (those its workers know they hold) to `until`.
    /// Nothing else shares its transaction: what keeps jobs from running twice must not fail
    /// with the bookkeeping of ``recordHeartbeat(_:)``.
    func renewLeases(_ jobs: [StoredJobID], owner: String, until: Date) async throws

    /// Records the process as alive at `beat.now` (what ``workerProcesses()`` lists), and
    /// forgets processes silent for longer than ``StoredWorkerProcess/forgottenAfter`` and three
    /// of their own leases.
    func recordHeartbeat(_ beat: Heartbeat) async throws

    /// Forgets the worker process `owner`: it stopped cleanly.
    func leave(owner: String) async throws

    /// Every worker process recorded, with the number of jobs each holds, by host then pid.
    func workerProcesses() async throws -> [StoredWorkerProcess]

    /// Applies outcomes, each only if its claim is still the job's current one; tells which were.
    func apply(_ resolutions: [Resolution], now: Date) async throws -> [Bool]

    /// Hands claimed jobs that never ran back to the queue, unchanged.
    func release(_ jobs: [ClaimedJob]) async throws

    /// Re-queues, as recoveries, the running jobs of every owner for which `isDead` is true,
    /// and forgets those owners' worker processes.
    func recover(ownersWhere isDead: @Sendable (String) -> Bool) async throws -> [JobReference]

    /// Makes every parked job pending.
    func wakeParked() async throws -> [JobReference]

    /// The jobs `query` selects, in its order, at most its limit (never negative here), from an
    /// index rather than a scan where one fits; payloads empty, and never read, unless
    /// ``StoredJobQuery/includesPayloads``.
    func list(_ query: StoredJobQuery) async throws -> [StoredJobRecord]

    /// How many jobs `query` selects, its limit aside.
    func count(_ query: StoredJobQuery) async throws -> Int

    /// The job with this id, if the store holds it.
    func job(_ id: StoredJobID) async throws -> StoredJobRecord?

    /// How many jobs are in each state.
    func countByState() async throws -> [StoredJobState: Int]

    /// Queues a failed job again with its retry count reset; nil if there is no such failed job.
    func retryFailed(_ id: StoredJobID) async throws -> JobReference?

    /// Deletes a job that is not running.
    func cancel(_ id: StoredJobID) async throws -> CancelResult

    /// Deletes every failed job; returns how many.
    func purgeFailed() async throws -> Int

    /// Starts watching for jobs other processes made runnable, calling `ring` each time, until
    /// the returned task is cancelled; nil when the backend has no such signal (its workers then
    /// find other processes' jobs by polling, every ``JobStoreOptions/pollInterval``).
    func watchForWork(_ ring: @escaping @Sendable () -> Void) -> Task<Void, Never>?
}

extension JobStoreBackend {
    /// SQLite has no notifications: workers poll.
    package func watchForWork(_ ring: @escaping @Sendable () -> Void) -> Task<Void, Never>? { nil }
}

/// A job to persist.
package struct NewStoredJob: Sendable {
    package let kind: String
    package let payload: Data
    /// The submitter's trace context (``StoredTraceContext``), nil when nothing traced it.
    package let traceContext: String?

    package init(kind: String, payload: Data, traceContext: String? = nil) {
        self.kind = kind
        self.payload = payload
        self.traceContext = traceContext
    }
}

/// A job's id and kind: what an event needs.
package struct JobReference: Sendable, Hashable {
    package let id: StoredJobID
    package let kind: String

    package init(id: StoredJobID, kind: String) {
        self.id = id
        self.kind = kind
    }
}

/// A worker process saying it is alive: what ``JobStoreBackend/recordHeartbeat(_:)`` records
/// and ``StoredWorkerProcess`` lists.
package struct Heartbeat: Sendable {
    /// The lease owner its claims carry: host, boot, pid, store instance.
    package let owner: String
    /// The host it runs on.
    package let host: String
    /// Its process id there.
    package let pid: Int32
    /// How many workers it started.
    package let workers: Int
    /// Its lease: its jobs stay claimed this long after a heartbeat.
    package let lease: Duration
    /// When it started its workers.
    package let startedAt: Date
    /// When it beat (its own wall clock).
    package let now: Date

    package init(owner: String, host: String, pid: Int32, workers: Int, lease: Duration, startedAt: Date, now: Date) {
        self.owner = owner
        self.host = host
        self.pid = pid
        self.workers = workers
        self.lease = lease
        self.startedAt = startedAt
        self.now = now
    }
}

/// A job a worker holds.
package struct ClaimedJob: Sendable {
    package let id: StoredJobID
    package let kind: String
    package let payload: Data
    package let retries: Int
    package let isRecovery: Bool
    /// Bumped by every claim; an outcome applies only while it is still the job's token.
    package let claimToken: Int64
    /// The submitter's trace context, which the run's span links to; nil when none was stored.
    package let traceContext: String?

    package init(
        id: StoredJobID, kind: String, payload: Data, retries: Int, isRecovery: Bool, claimToken: Int64,
        traceContext: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.retries = retries
        self.isRecovery = isRecovery
        self.claimToken = claimToken
        self.traceContext = traceContext
    }
}

/// What one claim transaction did.
package struct ClaimBatch: Sendable {
    /// Claimed jobs, oldest first.
    package var jobs: [ClaimedJob]
    /// Jobs whose lease had expired, queued again by this transaction.
    package var recovered: [JobReference]
    /// When nothing was claimed: the earliest time a scheduled or parked job falls due or a
    /// lease runs out, if any.
    package var nextDue: Date?
    /// Claimed rows that were not jobs (damaged), failed by this transaction with the reason.
    package var rejected: [RejectedJob]

    package init(jobs: [ClaimedJob], recovered: [JobReference], nextDue: Date?, rejected: [RejectedJob] = []) {
        self.jobs = jobs
        self.recovered = recovered
        self.nextDue = nextDue
        self.rejected = rejected
    }
}

/// An executor's answer turned into a change of one job's row.
package struct Resolution: Sendable {
    package enum Action: Sendable {
        /// Success: delete the row.
        case delete
        /// Conditions not met: park until `until` at the latest, count unchanged.
        case park(until: Date)
        /// Counted retry: `retries` in all, next run at `at`.
        case schedule(retries: Int, at: Date, reason: String)
        /// Failed for good, after `retries` retries.
        case fail(retries: Int, reason: String)
    }

    package let job: ClaimedJob
    package let action: Action

    package init(job: ClaimedJob, action: Action) {
        self.job = job
        self.action = action
    }
}

/// The answer to a cancel request.
package enum CancelResult: Sendable, Equatable {
    case cancelled(kind: String)
    case running
    case notFound
}

/// One row as the backend stores it, read by ``JobRowDecoding``: a job, or a damaged row.
package struct StoredJobRecord: Sendable {
    package let id: StoredJobID
    package let kind: String
    package let state: StoredJobState
    package let retries: Int
    package let submittedAt: Date
    package let dueAt: Date?
    package let leaseOwner: String?
    package let lastError: String?
    package let isRecovery: Bool
    package let payload: Data
    /// Why the row is not a job (state ``StoredJobState/damaged``); nil for a job.
    package let damage: String?

    package init(
        id: StoredJobID, kind: String, state: StoredJobState, retries: Int, submittedAt: Date, dueAt: Date?,
        leaseOwner: String?, lastError: String?, isRecovery: Bool, payload: Data, damage: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.retries = retries
        self.submittedAt = submittedAt
        self.dueAt = dueAt
        self.leaseOwner = leaseOwner
        self.lastError = lastError
        self.isRecovery = isRecovery
        self.payload = payload
        self.damage = damage
    }

    /// A row that is not a job: its id, its kind if that was readable, and why. The other
    /// fields are neutral (zero, empty, 1970) and never shown (see ``StoredJobInfo/damage``).
    package static func damaged(id: StoredJobID, kind: String?, reason: String) -> StoredJobRecord {
        StoredJobRecord(
            id: id, kind: kind ?? "", state: .damaged, retries: 0, submittedAt: Date(timeIntervalSince1970: 0),
            dueAt: nil, leaseOwner: nil, lastError: nil, isRecovery: false, payload: Data(), damage: reason)
    }
}
