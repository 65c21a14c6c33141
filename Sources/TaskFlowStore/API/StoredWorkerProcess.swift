import Foundation

/// A process running workers on a job store, as its last heartbeat recorded it: what the
/// dashboard's jobs view and `taskflow jobs workers` show for every process sharing the store.
///
/// A running store beats every third of its lease, in the transaction that renews its leases,
/// so a process whose ``lastHeartbeat`` is older than its ``lease`` has stopped renewing: its
/// jobs are being, or will be, taken over. A store that stops cleanly removes its own entry; one
/// that died stays listed, silent, until a store on its host proves it dead when starting, or
/// until it has been silent for ``StoredWorkerProcess/forgottenAfter`` (or three leases, if longer).
public struct StoredWorkerProcess: Sendable, Hashable {
    /// The lease owner its claimed jobs carry (``StoredJobInfo/leaseOwner``): host, boot, pid
    /// and store instance.
    public let owner: String
    /// The host it runs on.
    public let host: String
    /// Its process id on that host.
    public let pid: Int32
    /// How many workers it started.
    public let workers: Int
    /// How many jobs it holds claimed now (running, or claimed and about to run).
    public let runningJobs: Int
    /// Its lease: how long its jobs stay claimed after its last heartbeat.
    public let lease: Duration
    /// When it started its workers.
    public let startedAt: Date
    /// When it last renewed its leases.
    public let lastHeartbeat: Date
    /// Whether it is the store this listing was asked of.
    public let isThisStore: Bool
    /// Why its stored row is not a process's heartbeat (a value of the wrong type or out of
    /// range), naming the column and the value; nil for every readable row. For a damaged row
    /// only ``owner``, ``host`` (empty when unreadable), ``runningJobs`` and this mean anything:
    /// the other fields are neutral values (zero, 1970) that views leave out.
    public let damage: String?

    /// How long a process that stopped beating stays listed at least. One whose lease is longer
    /// than a third of this stays three of its leases, so that a live process, which beats every
    /// third of its lease, is never forgotten between two beats.
    public static let forgottenAfter = Duration.seconds(3600)

    /// How many of its leases a silent process stays listed, at least.
    package static let forgottenAfterLeases = 3.0

    /// A process as a backend lists it.
    package init(
        owner: String, host: String, pid: Int32, workers: Int, runningJobs: Int, lease: Duration, startedAt: Date,
        lastHeartbeat: Date, isThisStore: Bool = false, damage: String? = nil
    ) {
        self.owner = owner
        self.host = host
        self.pid = pid
        self.workers = workers
        self.runningJobs = runningJobs
        self.lease = lease
        self.startedAt = startedAt
        self.lastHeartbeat = lastHeartbeat
        self.isThisStore = isThisStore
        self.damage = damage
    }

    /// A stored row that is not a heartbeat: who it names, if readable, and why.
    package static func damaged(owner: String, host: String?, runningJobs: Int, reason: String) -> StoredWorkerProcess {
        let epoch = Date(timeIntervalSince1970: 0)
        return StoredWorkerProcess(
            owner: owner, host: host ?? "", pid: 0, workers: 0, runningJobs: runningJobs, lease: .zero, startedAt: epoch,
            lastHeartbeat: epoch, damage: reason)
    }

    /// Whether it has missed its lease at `now`: it stopped renewing (dead, hung or cut off).
    public func isSilent(at now: Date) -> Bool {
        now.timeIntervalSince(lastHeartbeat) > lease.timeInterval
    }

    /// The same process, marked as the store that listed it or not.
    package func seen(by owner: String) -> StoredWorkerProcess {
        StoredWorkerProcess(
            owner: self.owner, host: host, pid: pid, workers: workers, runningJobs: runningJobs, lease: lease,
            startedAt: startedAt, lastHeartbeat: lastHeartbeat, isThisStore: self.owner == owner, damage: damage)
    }
}
