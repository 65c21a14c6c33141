import Foundation

/// One job of a durable job store as a watcher shows it, whatever the store's backend: what a
/// ``JobStoreSource`` lists.
public struct StoredJobRow: Sendable, Hashable {
    /// Where the job is in its life.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Claimable now.
        case pending
        /// Claimed by a worker holding a lease on it.
        case running
        /// Waiting for conditions to change.
        case parked
        /// Waiting for the time of its next counted retry.
        case scheduled
        /// Out of the queue for good; kept until retried or purged.
        case failed
        /// Not a job: its stored row holds a value of the wrong type or out of range
        /// (``StoredJobRow/damage`` says which); never run.
        case damaged
    }

    /// The store's id for it.
    public let id: ID
    /// The kind its executor is registered under.
    public let kind: String
    /// Where it is.
    public let state: State
    /// Counted retries so far.
    public let retries: Int
    /// The next attempt (scheduled), the next re-check (parked) or the lease's end (running).
    public let dueAt: Date?
    /// The worker that holds it (running), as `host:pid`.
    public let leaseOwner: String?
    /// Why it failed, or why its last retry was scheduled, its secrets redacted.
    public let lastError: String?
    /// Its next run recovers it from a worker that died.
    public let isRecovery: Bool
    /// The payload as JSON with its secrets redacted.
    public let payload: String
    /// For a damaged row: why it is not a job, naming the column and the value. Only ``id``,
    /// ``kind`` (empty when unreadable) and this mean anything then.
    public let damage: String?

    /// Describes one job.
    public init(
        id: ID, kind: String, state: State, retries: Int, dueAt: Date?, leaseOwner: String?,
        lastError: String?, isRecovery: Bool, payload: String, damage: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.retries = retries
        self.dueAt = dueAt
        self.leaseOwner = leaseOwner
        self.lastError = lastError
        self.isRecovery = isRecovery
        self.payload = payload
        self.damage = damage
    }
}
