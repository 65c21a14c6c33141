import TaskFlowSupport

/// What a flow or a job ended with, for whoever awaits its handle: set once, when the flow's
/// rollback is over and the lock released, or when the job's queue has let go of it; each
/// `await` before then waits for it, each after gets it at once.
///
/// A flow has no task of its own to await: a queued flow runs on the task of the flow before
/// it (``AdmittedFlow``), and a job may run on the task of the job before it (``JobHandOff``).
/// So their handles await this, kept inside their record (no object of its own to allocate).
///
/// Not generic: the value is kept as `any Sendable` (``ErasedOutcome``) until the handle casts
/// it back. Generic bookkeeping called from other modules runs unspecialised and looks up
/// generic metadata at each use, which costs more than the rest of an empty flow.
struct Completion: ~Copyable, Sendable {
    private struct State {
        /// Until the end: these wait (none yet, or one, almost always), to be resumed once the
        /// outcome is here, and read it then. Why not resumed with it: each would get a copy.
        var waiters = Waiters<Void, Never>()
        /// Set once, by ``Completion/end(_:)``, with `outcome`.
        var hasEnded = false
        /// What it ended with, once `hasEnded`. Not an optional (nor an enum of the two
        /// states): an optional of a type holding an existential is copied, destroyed and
        /// matched through the runtime's generic witnesses.
        var outcome = ErasedOutcome.success(())
    }

    private let state = Protected(State())

    init() {}

    /// Sets the outcome and resumes everyone waiting; only the first call counts. Out of line: it
    /// runs at the end of every flow's async frame, which must not carry its temporaries.
    @inline(never)
    func end(_ outcome: ErasedOutcome) {
        let waiting = state.withLock { state -> Waiters<Void, Never>? in
            guard !state.hasEnded else { return nil }
            state.hasEnded = true
            state.outcome = outcome
            defer { state.waiters = Waiters() }
            return state.waiters
        }
        waiting?.resume(with: .success(()))
    }

    /// The outcome, once it is set.
    var outcome: ErasedOutcome {
        get async {
            let ended = state.withLock { $0.hasEnded }
            if !ended {
                await withUnsafeContinuation { (continuation: Waiters<Void, Never>.Waiter) in
                    let waits = state.withLock { state in
                        guard !state.hasEnded else { return false }
                        state.waiters.append(continuation)
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            }
            // Set before `end` resumed anyone, and never again.
            return state.withLock { $0.outcome }
        }
    }
}
