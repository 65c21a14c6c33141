/// A durable job store the dashboard shows in its jobs view (`Tab`) and steers: the
/// dashboard knows no store backend; the command line adapts one (SQLite today).
public protocol JobStoreSource: Sendable {
    /// The name shown: the store's path.
    var name: String { get }
    /// The oldest `limit` jobs of the store, how many there are in each state (a store may hold
    /// millions, and the view shows a screenful), and the processes running workers on it. The
    /// rows' text (kind, lease owner, last error, payload) comes redacted: the dashboard shows
    /// it as it is.
    func listing(limit: Int) async throws -> StoreListing
    /// What this process's store does from now on (submitted, started, parked, retry
    /// scheduled, succeeded, failed, recovered…), as event log lines. Other processes' changes
    /// show in the listing only.
    func changes() -> AsyncStream<EventText.Line>
    /// Queues a failed job again now.
    func retry(_ id: Int64) async throws
    /// Removes a job that is not running.
    func cancel(_ id: Int64) async throws
    /// Conditions changed: every parked job becomes pending, its retry count unchanged.
    func conditionsChanged()
    /// A condition the store's executors wait for that the user may switch with `n` (the
    /// outbox demo's network), as it stands now; nil when there is none.
    var condition: StoreCondition? { get }
    /// Switches ``condition``; switched on, it also tells the store conditions changed.
    func switchCondition()
}

/// What one listing of a job store found.
public struct StoreListing: Sendable, Hashable {
    /// The oldest jobs, oldest first.
    public let rows: [StoredJobRow]
    /// How many jobs the store holds in each state (all of them, not only ``rows``).
    public let counts: [StoredJobRow.State: Int]
    /// The processes running workers on the store, by host then pid.
    public let processes: [WorkerProcessRow]

    /// A listing.
    public init(rows: [StoredJobRow], counts: [StoredJobRow.State: Int], processes: [WorkerProcessRow] = []) {
        self.rows = rows
        self.counts = counts
        self.processes = processes
    }
}

/// A condition jobs wait for, as the jobs view shows it: "network up".
public struct StoreCondition: Sendable, Hashable {
    /// What it is: "network".
    public let name: String
    /// Whether it holds now.
    public let isMet: Bool

    /// Describes a condition.
    public init(name: String, isMet: Bool) {
        self.name = name
        self.isMet = isMet
    }
}

extension JobStoreSource {
    /// Most stores have no condition the user switches.
    public var condition: StoreCondition? { nil }

    /// Nothing to switch.
    public func switchCondition() {}
}
