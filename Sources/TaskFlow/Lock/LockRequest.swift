import TaskFlowSupport

/// One flow's claim on the lock, stored in place in its record (no object of its own): a cancel
/// can withdraw it whether the flow has not reached the lock yet, is waiting in the queue, or
/// already got in. An undo asks the lock with the same claim: a completed flow's claim is idle,
/// and nothing withdraws it (an undo is not cancellable).
struct LockRequest: ~Copyable, Sendable {
    /// Where the request stands. Only the lock moves it to `waiting` and back to `idle`; only
    /// `markWithdrawn()` moves it to `withdrawn`, from which it never leaves.
    private enum Phase {
        /// Not in the queue (not yet asked, or already admitted).
        case idle
        /// In the queue under this ticket.
        case waiting(ticket: Int)
        /// Cancelled: the lock must not admit it any more.
        case withdrawn
    }

    private let phase = Protected(Phase.idle)

    init() {}

    var isWithdrawn: Bool {
        phase.withLock { phase in
            if case .withdrawn = phase { return true }
            return false
        }
    }

    /// Marks the request withdrawn and returns the ticket it waits under, if any.
    func markWithdrawn() -> Int? {
        phase.withLock { phase in
            defer { phase = .withdrawn }
            if case .waiting(let ticket) = phase { return ticket }
            return nil
        }
    }

    /// Records that the request waits under `ticket`; false if it was withdrawn first.
    func markWaiting(ticket: Int) -> Bool {
        phase.withLock { phase in
            if case .withdrawn = phase { return false }
            phase = .waiting(ticket: ticket)
            return true
        }
    }

    /// Records that the request left the queue into the lock.
    func markAdmitted() {
        phase.withLock { phase in
            if case .waiting = phase { phase = .idle }
        }
    }
}
