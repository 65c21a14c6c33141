import Foundation

/// Where a persisted job is in its life.
public enum StoredJobState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Queued, claimable now (oldest first).
    case pending
    /// Claimed by a worker that holds a lease on it.
    case running
    /// Waiting for conditions (``StoredJobOutcome/retryWhenReady``).
    case parked
    /// Waiting for the time of its next counted retry.
    case scheduled
    /// Out of the queue for good; kept until retried or purged.
    case failed
    /// Not a job: a value of its stored row is of the wrong type or out of range (a store file
    /// is input, and SQLite lets any value into any column), or its state is none of the above.
    /// Listed with the reason (``StoredJobInfo/damage``), never run: a worker that claims it
    /// fails it with the reason. Cancelling removes it; a failed one can be retried.
    case damaged
}

/// A snapshot of one persisted job, for lists (CLI, dashboard, tests).
///
/// A damaged row (``state`` ``StoredJobState/damaged``) is listed too, never skipped: only its
/// ``id``, ``damage`` and — when readable — ``kind`` mean anything; the other fields are neutral
/// values (zero, empty, 1970) that views leave out.
public struct StoredJobInfo: Sendable, Hashable {
    /// The job's identity.
    public let id: StoredJobID
    /// Its ``StoredJob/kind``.
    public let kind: String
    /// Where it is in its life.
    public let state: StoredJobState
    /// Counted retries so far (see ``StoredJobAttempt/retries``).
    public let retries: Int
    /// When it was submitted.
    public let submittedAt: Date
    /// For `scheduled`: the next attempt; for `parked`: the latest re-check; for `running`: when
    /// the lease runs out unless renewed. Nil otherwise.
    public let dueAt: Date?
    /// For `running`: the worker holding it (host, process id and store instance), as
    /// ``StoredWorkerProcess/owner`` names it.
    public let leaseOwner: String?
    /// For `running`: the holder as people name a process, `host:pid`; the whole
    /// ``leaseOwner`` when that is not in a TaskFlow store's form.
    public var leaseHolder: String? { leaseOwner.map(LeaseOwner.processName) }
    /// The last failure's description: why it failed, or why its last retry was scheduled.
    public let lastError: String?
    /// True when its next run is a recovery (a dead worker had claimed it).
    public let isRecovery: Bool
    /// Whether the store that listed it has an executor registered for `kind`; a job without
    /// one stays queued until a store that has one claims it.
    public let hasExecutor: Bool
    /// The payload as the JSON it is stored as; empty when listed without payloads
    /// (``StoredJobQuery/includesPayloads``).
    public let payload: Data
    /// Why the row is not a job, naming the column and the value (`retries is 'abc', not a
    /// count from 0 to 2147483647`); nil for every job that is not ``StoredJobState/damaged``.
    public let damage: String?
}
