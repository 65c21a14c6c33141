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

    var resolver: OutcomeResolver { OutcomeResolver(recheckInterval: options.recheckInterval) }
}
