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
    /// How long flows waited for it (the lock panel's p50/p99).
    package private(set) var waits: LockWaits
    /// How long each waiting flow has waited, and how many read phases passed it (the
    /// starved-writer warning).
    package private(set) var queueAges = LockQueueAges()

    /// An idle lock; `waits` carries the waits of a lock it replaces (a resynchronised board).
    package init(waits: LockWaits = LockWaits()) {
        self.waits = waits
    }

    /// Takes the lock as a snapshot shows it (a dashboard attaching to a running manager).
    /// Holders and waiters already known keep their place.
    mutating func adopt(_ snapshot: LockSnapshot) {
        mode = snapshot.mode
        for holder in snapshot.holders { holders.append(holder) }
        for waiter in snapshot.queue { queue.append(waiter) }
    }

    /// ``adopt(_:)``, each waiter's wait counted from `waitingSince` (when the snapshot tells
    /// it: the flow's submission, on the board's clock), else from `time`, when the dashboard
    /// first saw it.
    mutating func adopt(_ snapshot: LockSnapshot, at time: Duration, waitingSince: [FlowID: Duration] = [:]) {
        adopt(snapshot)
        for waiter in snapshot.queue {
            let since = waitingSince[waiter.id].map { min($0, time) }
            queueAges.adopt(waiting: waiter.id, at: since ?? time)
            if let since { waits.adopt(waiting: waiter.id, since: since) }
        }
    }

    /// Applies one change that happened at `time`.
    mutating func apply(_ event: LockEvent, at time: Duration) {
        waits.record(event, at: time)
        queueAges.record(event, before: mode, at: time)
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
