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
}

/// A snapshot of one persisted job, for lists (CLI, dashboard, tests).
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
}
