import TaskFlowSupport

/// What a flow ended with, for whoever awaits its handle: set once, when the flow's rollback is
/// over and the lock released; each `await` before then waits for it, each after gets it at once.
///
/// A flow has no task of its own to await: a queued flow runs on the task of the flow before
/// it (``QueuedFlow``), so its handle awaits this instead.
final class FlowCompletion<Value: Sendable>: Sendable {
    private enum State {
        /// Running (or queued): these wait.
        case pending([CheckedContinuation<Result<Value, any Error>, Never>])
        /// Ended so.
        case ended(Result<Value, any Error>)
    }

    private let state = Protected(State.pending([]))

    init() {}

    /// Sets the outcome and resumes everyone waiting; only the first call counts.
    func end(_ result: Result<Value, any Error>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Result<Value, any Error>, Never>] in
            guard case .pending(let waiting) = state else { return [] }
            state = .ended(result)
            return waiting
        }
        for waiter in waiting { waiter.resume(returning: result) }
    }

    /// The outcome, once the flow ended.
    var result: Result<Value, any Error> {
        get async {
            let ended = state.withLock { state -> Result<Value, any Error>? in
                if case .ended(let result) = state { return result }
                return nil
            }
            if let ended { return ended }
            return await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Result<Value, any Error>? in
                    switch state {
                    case .ended(let result): return result
                    case .pending(var waiting):
                        waiting.append(continuation)
                        state = .pending(waiting)
                        return nil
                    }
                }
                if let ended { continuation.resume(returning: ended) }
            }
        }
    }
}
