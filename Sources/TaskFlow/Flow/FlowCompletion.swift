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
    /// Unsafe rather than checked continuations: a checked one allocates a guard object per
    /// wait, and each of these is resumed exactly once, by ``end(_:)``, which takes every
    /// waiter out of the state under the lock that put it there.
    private typealias Waiter = UnsafeContinuation<Outcome, Never>

    private enum State {
        /// Running (or queued): nobody waits yet.
        case pending
        /// Running (or queued): these wait (one, almost always).
        case awaited(Waiter, more: [Waiter])
        /// Ended so.
        case ended(Outcome)
    }

    private let state = Protected(State.pending)

    init() {}

    /// Sets the outcome and resumes everyone waiting; only the first call counts.
    func end(_ outcome: Outcome) {
        let waiting = state.withLock { state -> (Waiter, [Waiter])? in
            switch state {
            case .ended: return nil
            case .pending:
                state = .ended(outcome)
                return nil
            case .awaited(let first, let more):
                state = .ended(outcome)
                return (first, more)
            }
        }
        guard let (first, more) = waiting else { return }
        first.resume(returning: outcome)
        for waiter in more { waiter.resume(returning: outcome) }
    }

    /// The outcome, once the flow ended.
    var outcome: Outcome {
        get async {
            let ended = state.withLock { state -> Outcome? in
                if case .ended(let outcome) = state { return outcome }
                return nil
            }
            if let ended { return ended }
            return await withUnsafeContinuation { (continuation: Waiter) in
                let ended = state.withLock { state -> Outcome? in
                    switch state {
                    case .ended(let outcome): return outcome
                    case .pending: state = .awaited(continuation, more: [])
                    case .awaited(let first, var more):
                        more.append(continuation)
                        state = .awaited(first, more: more)
                    }
                    return nil
                }
                if let ended { continuation.resume(returning: ended) }
            }
        }
    }
}
