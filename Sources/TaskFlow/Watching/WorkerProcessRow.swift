import Foundation

/// A process running workers on the durable job store, as the jobs view shows it, whatever the
/// store's backend: what a ``JobStoreSource`` lists beside the jobs.
public struct WorkerProcessRow: Sendable, Hashable {
    /// The host it runs on.
    public let host: String
    /// Its process id there.
    public let pid: Int32
    /// How many workers it started.
    public let workers: Int
    /// How many jobs it holds now.
    public let runningJobs: Int
    /// Its lease: past this long without a heartbeat, it has stopped renewing its jobs.
    public let lease: Duration
    /// Its last heartbeat (wall clock).
    public let lastHeartbeat: Date
    /// Whether it is this dashboard's own store.
    public let isThisStore: Bool
    /// Why its stored row is not a heartbeat (a value of the wrong type or out of range); only
    /// ``host``, ``runningJobs`` and this mean anything then.
    public let damage: String?

    /// Describes one process.
    public init(
        host: String, pid: Int32, workers: Int, runningJobs: Int, lease: Duration, lastHeartbeat: Date, isThisStore: Bool,
        damage: String? = nil
    ) {
        self.host = host
        self.pid = pid
        self.workers = workers
        self.runningJobs = runningJobs
        self.lease = lease
        self.lastHeartbeat = lastHeartbeat
        self.isThisStore = isThisStore
        self.damage = damage
    }
}
