/// Errors the engine itself raises when a flow is used the wrong way.
public enum FlowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `update` was called inside a read flow, which may not change state.
    case updateInReadFlow(flow: String)
    /// `undo()` was called on a read flow: read flows change nothing, so there is nothing to undo.
    case undoOfReadFlow(flow: String)
    /// `undo()` was called on a flow that is not completed (still running, failed, cancelled or
    /// already undone). `status` names the state it was in.
    case notUndoable(flow: String, status: String)
    /// `undo()` was called on a completed flow whose revert log the manager has released
    /// because more than `undoHistoryLimit` flows completed after it.
    case undoHistoryExpired(flow: String, limit: Int)
    /// A revert of `update` found the state changed by a later flow, so restoring the old value
    /// would silently discard that flow's work. Undo the later flow first.
    case stateChangedSinceUpdate(step: String)

    public var description: String {
        switch self {
        case .updateInReadFlow(let flow):
            "'\(flow)' is a read flow: update is only allowed in write flows"
        case .undoOfReadFlow(let flow):
            "'\(flow)' is a read flow: it changed nothing, so there is nothing to undo"
        case .notUndoable(let flow, let status):
            "'\(flow)' cannot be undone: it is \(status), only completed write flows can be undone"
        case .undoHistoryExpired(let flow, let limit):
            "'\(flow)' can no longer be undone: only the last \(limit) completed write flows keep their undo log"
        case .stateChangedSinceUpdate(let step):
            "cannot revert '\(step)': a later flow changed the state since; undo that flow first"
        }
    }
}

/// Thrown by ``TaskFlow/value`` when the rollback after a cancel, failure or undo left some
/// reverts failed. Every revert that could run did run.
public struct RollbackIncompleteError: Error, Sendable, CustomStringConvertible {
    /// What started the rollback.
    public let cause: RollbackCause
    /// Every revert that threw, in the order they ran.
    public let failures: [RevertFailure]

    public var description: String {
        "rollback incomplete (\(failures.count) revert\(failures.count == 1 ? "" : "s") failed): "
            + failures.map(\.description).joined(separator: "; ")
    }
}
