import Foundation

/// Everything a store's workers share: the storage, the executors, the event stream, the bell
/// that wakes them, who they are (lease owner) and the store's settings.
struct WorkerEnvironment: Sendable {
    let backend: any JobStoreBackend
    let registry: ExecutorRegistry
    let events: EventBroadcaster
    let doorbell: Doorbell
    let owner: LeaseOwner
    let lease: Duration
    let options: JobStoreOptions
    /// What the workers hold now: the leases to renew.
    let held = HeldJobs()

    /// This process saying it is alive with `workers` workers started at `startedAt`, renewing
    /// the leases of the jobs its workers hold now a full lease ahead.
    func heartbeat(workers: Int, startedAt: Date) -> Heartbeat {
        let now = Date()
        return Heartbeat(
            owner: owner.encoded, host: owner.host, pid: owner.pid, workers: workers, lease: lease, startedAt: startedAt,
            now: now, jobs: held.all, leaseUntil: now + lease.timeInterval)
    }

    var resolver: OutcomeResolver { OutcomeResolver(recheckInterval: options.recheckInterval) }
}
