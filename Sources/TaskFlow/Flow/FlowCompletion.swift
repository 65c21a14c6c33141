import TaskFlowSupport

/// What a flow ended with, for whoever awaits its handle: set once, when the flow's rollback is
/// over and the lock released; each `await` before then waits for it, each after gets it at once.
///
/// A flow has no task of its own to await: a queued flow runs on the task of the flow before
/// it (``AdmittedFlow``), so its handle awaits this, kept inside its record (no object of its
/// own to allocate).
///
/// Not generic: the value is kept as `any Sendable` until ``TaskFlow/value`` casts it back, as a
/// job's is. Generic bookkeeping called from other modules runs unspecialised and looks up
/// generic metadata at each use, which costs more than the rest of an empty flow.
struct FlowCompletion: ~Copyable, Sendable {
    typealias Outcome = Result<any Sendable, any Error>

    private enum State {
        /// Running (or queued): these wait (none yet, or one, almost always), to be resumed
        /// once the outcome is here, and read it then. Why not resumed with it: the outcome
        /// is two existentials, and each copy goes through their value witnesses.
        case waiting(Waiters<Void, Never>)
        /// Ended so.
        case ended(Outcome)
    }

    private let state = Protected(State.waiting(Waiters()))

    init() {}

    /// Sets the outcome and resumes everyone waiting; only the first call counts. Out of line: it
    /// runs at the end of every flow's async frame, which must not carry its temporaries.
    @inline(never)
    func end(_ outcome: Outcome) {
        let waiting = state.withLock { state -> Waiters<Void, Never>? in
            guard case .waiting(let waiters) = state else { return nil }
            state = .ended(outcome)
            return waiters
        }
        waiting?.resume(with: .success(()))
    }

    /// The outcome, once the flow ended.
    var outcome: Outcome {
        get async {
            if let ended { return ended }
            await withUnsafeContinuation { (continuation: Waiters<Void, Never>.Waiter) in
                let waits = state.withLock { state in
                    guard case .waiting(var waiters) = state else { return false }
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return true
                }
                if !waits { continuation.resume() }
            }
            // Resumed by `end`, after it set the outcome.
            guard let ended else { preconditionFailure("TaskFlow: a flow's handle resumed before its end") }
            return ended
        }
    }

    /// The outcome if the flow ended, else nil.
    private var ended: Outcome? {
        state.withLock { state in
            if case .ended(let outcome) = state { return outcome }
            return nil
        }
    }
}
