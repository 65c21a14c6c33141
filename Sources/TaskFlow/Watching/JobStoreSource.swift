/// A durable job store as a watcher sees and steers it: the dashboard's stored jobs view, and a
/// console serving a program to `taskflow attach`. Watchers know no store backend:
/// `TaskFlowStore`'s `JobStore` conforms (SQLite and PostgreSQL alike), and so does a remote
/// program's store seen through its console.
public protocol JobStoreSource: Sendable {
    /// The name shown: the store's path.
    var name: String { get }
    /// The oldest `limit` jobs of the store, how many there are in each state (a store may hold
    /// millions, and the view shows a screenful), and the processes running workers on it. The
    /// rows' text (kind, lease owner, last error, payload) comes redacted: the dashboard shows
    /// it as it is.
    func listing(limit: Int) async throws -> StoreListing
    /// What this process's store does from now on (submitted, started, parked, retry
    /// scheduled, succeeded, failed, recovered…), as event log lines, their text redacted and
    /// escaped. Other processes' changes show in the listing only.
    func changeLog() -> AsyncStream<LogLine>
    /// The runs this process's workers finish from now on, each with its kind and how long its
    /// executor took: what per-kind duration statistics are made of. Other processes' runs are
    /// not seen, as in ``changeLog()``.
    func runs() -> AsyncStream<StoredJobRun>
    /// Queues a failed job again now.
    func retry(_ id: StoredJobRow.ID) async throws
    /// Removes a job that is not running.
    func cancel(_ id: StoredJobRow.ID) async throws
    /// Conditions changed: every parked job becomes pending, its retry count unchanged.
    func conditionsChanged()
}

extension JobStoreSource {
    /// No runs: a source that cannot time its jobs' runs (a program attached through its
    /// console) leaves the per-kind statistics empty.
    public func runs() -> AsyncStream<StoredJobRun> {
        AsyncStream { $0.finish() }
    }
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
