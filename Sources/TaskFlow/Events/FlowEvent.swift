/// One change in a manager: of a flow, a step, or the lock. Every observer of
/// ``TaskFlowManager/events`` receives every event, in the order the changes happened.
public enum FlowEvent: Sendable {
    /// A flow was submitted. Always the first event of a flow.
    case flowQueued(FlowInfo)
    /// A flow moved to a new ``FlowStatus``.
    case statusChanged(FlowID, FlowStatus)
    /// A step began its `apply`.
    case stepStarted(FlowID, StepInfo)
    /// A step's `apply` ended.
    case stepFinished(FlowID, StepID, StepOutcome)
    /// A background step reported progress (0...1). Coalesced: see ``TaskContext/progress(_:)``.
    case progress(FlowID, StepID, Double)
    /// A step's revert began (during a rollback or an undo).
    case stepReverting(FlowID, StepID)
    /// A step's revert ended without error.
    case stepReverted(FlowID, StepID)
    /// A step's revert threw; the rollback goes on. The message is the error's description.
    case revertFailed(FlowID, StepID, String)
    /// The lock admitted, queued, released or withdrew a flow.
    case lock(LockEvent)

    /// The flow the event is about.
    public var flowID: FlowID {
        switch self {
        case .flowQueued(let info): info.id
        case .statusChanged(let id, _), .stepStarted(let id, _), .stepFinished(let id, _, _),
            .progress(let id, _, _), .stepReverting(let id, _), .stepReverted(let id, _),
            .revertFailed(let id, _, _):
            id
        case .lock(let event): event.holder.id
        }
    }
}
