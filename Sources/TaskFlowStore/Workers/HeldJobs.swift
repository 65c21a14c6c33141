import NIOConcurrencyHelpers

/// The jobs this store's workers hold: claimed, and not yet committed or handed back. Only
/// their leases are renewed. A claim the database committed but whose answer never arrived (the
/// connection dropped on the way) is held by no worker, so its lease runs out and the job comes
/// back, instead of being renewed forever by an owner that does not know it has it.
///
/// A pthread lock (NIO's), like the store's other shared state: ThreadSanitizer cannot see
/// `Synchronization.Mutex`'s futex and reports every access inside it as a race.
final class HeldJobs: Sendable {
    private let ids = NIOLockedValueBox(Set<StoredJobID>())

    /// A worker claimed these.
    func hold(_ jobs: [ClaimedJob]) {
        ids.withLockedValue { $0.formUnion(jobs.map(\.id)) }
    }

    /// A worker committed these, or handed them back, or gave up on them.
    func release(_ jobs: [ClaimedJob]) {
        ids.withLockedValue { $0.subtract(jobs.map(\.id)) }
    }

    /// The jobs held now, in id order.
    var all: [StoredJobID] { ids.withLockedValue { $0.sorted() } }
}
