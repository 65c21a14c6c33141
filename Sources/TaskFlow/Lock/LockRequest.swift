/// One flow's claim on the lock. Owned by the flow so that a cancel can withdraw it whether the
/// flow has not reached the lock yet, is waiting in the queue, or already got in.
final class LockRequest: Sendable {
    /// Where the request stands. Only the lock moves it from `idle` to `waiting`; only
    /// `withdraw()` moves it to `withdrawn`.
    enum Phase {
        /// Not in the queue (not yet asked, or already admitted).
        case idle
        /// In the queue under this ticket.
        case waiting(ticket: Int)
        /// Cancelled: the lock must not admit it any more.
        case withdrawn
    }

    let holder: LockHolder
    let phase = Protected(Phase.idle)

    init(holder: LockHolder) { self.holder = holder }

    /// Marks the request withdrawn and returns the ticket it waits under, if any.
    func markWithdrawn() -> Int? {
        phase.withLock { phase in
            defer { phase = .withdrawn }
            if case .waiting(let ticket) = phase { return ticket }
            return nil
        }
    }
}
