import TaskFlowSupport

/// Sends the wake-up (`NOTIFY taskflow_jobs`) for submitted jobs after their insert committed,
/// outside its transaction, one at a time: the submits that arrive while one is on its way are
/// covered by a single next one.
///
/// Why not in the insert's own transaction, where it used to be: PostgreSQL serialises every
/// committing transaction that notifies on one lock, held through its commit, and appends to
/// its notification queue whether anyone listens or not. With pgbench on the job table here,
/// the insert without the notify ran 1.2× faster from one client and 1.6× from eight.
///
/// Nothing is lost by sending it after the commit: a worker it wakes finds the job (committed
/// before the ring), every commit is followed by a wake-up sent after it, and a wake-up that
/// never goes out (the process ended first, the server was unreachable) costs an idle worker at
/// most its poll interval (``TaskFlowStore/JobStoreOptions/pollInterval``).
final class WakeUpSender: Sendable {
    /// Whether a wake-up is on its way, and whether a commit came after it started.
    private enum State {
        /// Nothing to send.
        case idle
        /// One wake-up on its way; no commit since it started.
        case sending
        /// One on its way, and a commit after it started: another follows it.
        case sendingThenAgain
    }

    private let state = Protected(State.idle)
    private let send: @Sendable () async -> Void

    /// A sender whose `send` delivers one wake-up (its failure is its own to swallow).
    init(send: @escaping @Sendable () async -> Void) {
        self.send = send
    }

    /// A job was committed: a wake-up goes out after this call, at once or after the one on
    /// its way. Never waits.
    func ring() {
        let starts = state.withLock { state in
            switch state {
            case .idle:
                state = .sending
                return true
            case .sending, .sendingThenAgain:
                state = .sendingThenAgain
                return false
            }
        }
        guard starts else { return }
        // Detached: the sender serves every submit after this one, so it takes neither this
        // caller's priority nor its task-locals (a trace's span, a logger's metadata).
        Task.detached { [self] in
            repeat { await send() } while sendsAgain()
        }
    }

    /// Whether no wake-up is on its way (for tests).
    var isIdle: Bool {
        state.withLock { state in
            if case .idle = state { return true }
            return false
        }
    }

    /// After a wake-up went out: whether another must follow (a commit came meanwhile).
    private func sendsAgain() -> Bool {
        state.withLock { state in
            guard case .sendingThenAgain = state else {
                state = .idle
                return false
            }
            state = .sending
            return true
        }
    }
}
