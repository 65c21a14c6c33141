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
    /// `taskflow.store.jobs`.
    let metrics = StoreMetrics()

    /// Counts the outcomes among `events` (``StoreMetrics``), then publishes them.
    func publish(_ events: [StoredJobEvent]) {
        metrics.count(events)
        self.events.emit(events)
    }

    /// This process saying it is alive now, with `workers` workers started at `startedAt`.
    func heartbeat(workers: Int, startedAt: Date) -> Heartbeat {
        Heartbeat(
            owner: owner.encoded, host: owner.host, pid: owner.pid, workers: workers, lease: lease, startedAt: startedAt,
            now: clock.date)
    }

    /// Pushes the end of every lease the workers hold now a full lease ahead.
    func renewLeases() async throws {
        let jobs = held.all
        guard !jobs.isEmpty else { return }
        try await backend.renewLeases(jobs, owner: owner.encoded, until: clock.date + lease.timeInterval)
    }

    /// What the workers wait on and date their writes by.
    var clock: StoreClock { options.clock }

    var resolver: OutcomeResolver { OutcomeResolver(recheckInterval: options.recheckInterval) }
}
