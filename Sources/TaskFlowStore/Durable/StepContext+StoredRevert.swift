import TaskFlow

extension StepContext {
    /// Runs `apply` as a background step of a durable flow whose revert is `revert`, stored:
    /// the journal commits it **before** `apply` starts (write-ahead), so whatever happens next
    /// — `apply` throws, the flow is cancelled or fails later, the process dies mid-step — that
    /// revert runs, through the handler registered for its kind: in this process's rollback,
    /// or in ``DurableFlows/recover()`` after a restart. It also runs when `apply` throws, since
    /// the step may have done part of its work: handlers must be idempotent and must tolerate a
    /// step that never ran or ran in part.
    ///
    /// What `apply` runs through its `TaskContext` is reverted first, as for any step. Throws
    /// ``DurableFlowError/notDurable(step:)`` outside a flow of ``DurableFlows``, and
    /// ``DurableFlowError/noHandler(kind:step:)`` for a kind nobody registered, before `apply`.
    @discardableResult
    public func task<Revert: StoredRevert, T: Sendable>(
        title: String, revert: Revert, apply: (TaskContext<State>) async throws -> T
    ) async throws -> T {
        let recording: StepRecording<T> = try JournaledStep.recording(
            in: self, title: title, kind: Revert.kind, revert: try JournalStep.Revert(revert))
        return try await scope.recordedTask(title, recording: recording, apply: apply)
    }

    /// Runs `apply` as a background step of a durable flow whose stored revert is made from its
    /// result by `storedRevert`: for effects whose identity only exists afterwards (a row's
    /// generated id). The step is journaled before `apply` starts, without a revert, and its
    /// revert is committed as soon as `apply` returns, before the step completes.
    ///
    /// **Its window:** a crash between the effect and that commit leaks this one effect (the
    /// journal knows the step ran, not what to undo). Prefer
    /// ``task(title:revert:apply:)`` with an identity chosen beforehand wherever one can be.
    @discardableResult
    public func task<Revert: StoredRevert, T: Sendable>(
        title: String, apply: (TaskContext<State>) async throws -> T,
        storedRevert: @escaping @Sendable (T) -> Revert
    ) async throws -> T {
        let recording: StepRecording<T> = try JournaledStep.recording(
            in: self, title: title, kind: Revert.kind, revert: nil, revertOfResult: { try JournalStep.Revert(storedRevert($0)) })
        return try await scope.recordedTask(title, recording: recording, apply: apply)
    }
}

extension CompositeBuilder {
    /// Adds a background step of a durable flow whose revert is `revert`, stored and journaled
    /// before the step runs: `StepContext/task(title:revert:apply:)` as a child of a group or
    /// sequence. Children of a group journal and run at once; their stored reverts run last
    /// first in this process's rollback, in the order they were journaled after a restart.
    public func task<Revert: StoredRevert, T: Sendable>(
        title: String, revert: Revert, apply: @escaping @Sendable (TaskContext<State>) async throws -> T
    ) {
        addChild { scope in
            _ = try await ScopeContext(scope: scope).task(title: title, revert: revert, apply: apply)
        }
    }
}

/// A composite child's scope as a `StepContext`, so that it runs the same durable step.
private struct ScopeContext<State: Sendable>: StepContext {
    let scope: StepScope<State>
}
