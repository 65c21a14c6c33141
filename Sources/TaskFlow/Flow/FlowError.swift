/// Errors the engine itself raises when a flow is used the wrong way. Each names the flow by its
/// ``FlowInfo`` (titles need not be unique; the id is) and a state by its ``FlowPhase``.
public enum FlowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `update` was called inside a read flow, which may not change state.
    case updateInReadFlow(flow: FlowInfo)
    /// `undo()` was called on a read flow: read flows change nothing, so there is nothing to undo.
    case undoOfReadFlow(flow: FlowInfo)
    /// `undo()` was called on a flow that is not completed (still running, failed, cancelled or
    /// already undone). `phase` is the state it was in.
    case notUndoable(flow: FlowInfo, phase: FlowPhase)
    /// `undo()` was called on a completed flow whose revert log the manager has released
    /// because more than `undoHistoryLimit` flows completed after it.
    case undoHistoryExpired(flow: FlowInfo, limit: Int)
    /// A revert of `update` could not restore the state as it was before the update, because a
    /// change made after it was never reverted (a step inside a revert changed the state), and
    /// restoring would silently discard that change. Listed in the rollback's failures.
    case stateChangedSinceUpdate(step: String)
    /// `undo()` was refused, before any revert ran, because a later flow changed the state this
    /// flow left. Undo the later flows first; this flow stays completed and undoable.
    case stateChangedSince(flow: FlowInfo)
    /// A step was started through a ``FlowContext`` or ``TaskContext`` that outlived its flow's
    /// body (kept in a task or a property). It would run after the flow ended, where no
    /// rollback or undo could ever revert it, so it is refused before it starts.
    case stepAfterFlowEnded(flow: FlowInfo, step: String)
    /// A flow was named by id (``TaskFlowManager/undo(_:)``, a console's command) that the
    /// manager does not know: it never existed, or it ended and is not in the undo history.
    case unknownFlow(FlowID)
    /// The flow was submitted after the manager's service began a graceful shutdown
    /// (``TaskFlowManager/service(grace:)``): it failed before it ran, and its body never runs.
    case shuttingDown

    /// One line saying what was refused and why.
    public var description: String {
        switch self {
        case .updateInReadFlow(let flow):
            "'\(flow.title)' is a read flow: update is only allowed in write flows"
        case .undoOfReadFlow(let flow):
            "'\(flow.title)' is a read flow: it changed nothing, so there is nothing to undo"
        case .notUndoable(let flow, let phase):
            "'\(flow.title)' cannot be undone: it is \(phase.name), only completed write flows can be undone"
        case .undoHistoryExpired(let flow, let limit):
            "'\(flow.title)' can no longer be undone: only the last \(limit) completed write flows keep their undo log"
        case .stateChangedSinceUpdate(let step):
            "cannot revert '\(step)': the state was changed since by a change that was never reverted"
        case .stateChangedSince(let flow):
            "'\(flow.title)' cannot be undone yet: later flows changed the state it left; undo them first"
        case .stepAfterFlowEnded(let flow, let step):
            "cannot start '\(step)': its flow '\(flow.title)' has ended; a context is only valid inside its flow's body"
        case .unknownFlow(let id):
            "no flow \(id) is running or can be undone"
        case .shuttingDown:
            "the manager is shutting down: no new flow is accepted"
        }
    }
}

/// Thrown when a rollback left some reverts failed: by ``TaskFlow/value`` and
/// ``TaskFlow/undo()``, and inside a flow by a step, group or sequence whose own rollback (of
/// its sub-steps or completed children) had failures, so a body that catches it still learns
/// of them. Every revert that could run did run.
public struct RollbackIncompleteError: Error, Sendable, CustomStringConvertible {
    /// What started the rollback.
    public let cause: RollbackCause
    /// Every revert that threw, in the order they ran.
    public let failures: [RevertFailure]

    /// The error that started a rollback and the revert failures already carried with it.
    static func split(_ error: any Error) -> (cause: any Error, failures: [RevertFailure]) {
        guard let incomplete = error as? RollbackIncompleteError else { return (error, []) }
        switch incomplete.cause {
        case .failed(let cause): return (cause, incomplete.failures)
        case .cancelled, .undo: return (CancellationError(), incomplete.failures)
        }
    }

    /// `cause` if no revert failed, else a rollback-incomplete error carrying the failures.
    static func wrapping(_ cause: any Error, _ failures: [RevertFailure]) -> any Error {
        failures.isEmpty ? cause : RollbackIncompleteError(cause: RollbackCause(cause), failures: failures)
    }

    /// How many reverts failed, and each failure.
    public var description: String {
        "rollback incomplete (\(failures.count) revert\(failures.count == 1 ? "" : "s") failed): "
            + failures.map(\.description).joined(separator: "; ")
    }
}
