import TaskFlow

/// The lock as the dashboard shows it: mode, holders and waiting queue, kept up to date from
/// ``LockEvent``s.
package struct LockBoard: Sendable, Hashable {
    /// Who holds it.
    package private(set) var mode: LockMode = .idle
    /// The flows holding it, in the order they entered.
    package private(set) var holders = ArrivalQueue()
    /// The flows waiting for it, in arrival order.
    package private(set) var queue = ArrivalQueue()

    /// An idle lock.
    package init() {}

    /// Takes the lock as a snapshot shows it (a dashboard attaching to a running manager).
    /// Holders and waiters already known keep their place.
    mutating func adopt(_ snapshot: LockSnapshot) {
        mode = snapshot.mode
        for holder in snapshot.holders { holders.append(holder) }
        for waiter in snapshot.queue { queue.append(waiter) }
    }

    /// Applies one change.
    mutating func apply(_ event: LockEvent) {
        mode = event.mode
        switch event.change {
        case .enqueued:
            queue.append(event.holder)
        case .admitted:
            queue.remove(event.holder.id)
            holders.append(event.holder)
        case .released:
            holders.remove(event.holder.id)
        case .withdrawn:
            queue.remove(event.holder.id)
        }
    }
}
