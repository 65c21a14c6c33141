/// One change in a manager: of a flow, a step, the lock or the undo history. Every observer of
/// ``TaskFlowManager/events`` receives every event, in the order the changes happened;
/// ``TaskFlowManager/timedEvents`` gives each with the moment it happened.
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
    /// A step run with a retry policy (``StepContext/task(title:retry:apply:revert:)``) failed an
    /// attempt and will run again after a delay: its `stepFinished` (failed) came just before.
    case stepRetrying(FlowID, StepRetry)
    /// A step's revert began (during a rollback or an undo).
    case stepReverting(FlowID, StepInfo)
    /// A step's revert ended without error.
    case stepReverted(FlowID, StepInfo)
    /// A step's revert threw; the rollback goes on. The message is the error's description.
    case revertFailed(FlowID, StepInfo, String)
    /// The lock admitted, queued, released or withdrew a flow.
    case lock(LockEvent)
    /// A completed write flow left the undo history (more than ``TaskFlowManager/undoHistoryLimit``
    /// flows completed after it): its revert log is released and ``TaskFlow/undo()`` now throws
    /// ``FlowError/undoHistoryExpired(flow:limit:)``.
    case undoExpired(FlowID)

    /// The flow the event is about.
    public var flowID: FlowID {
        switch self {
        case .flowQueued(let info): info.id
        case .statusChanged(let id, _), .stepStarted(let id, _), .stepFinished(let id, _, _),
            .progress(let id, _, _), .stepReverting(let id, _), .stepReverted(let id, _),
            .revertFailed(let id, _, _), .undoExpired(let id), .stepRetrying(let id, _):
            id
        case .lock(let event): event.holder.id
        }
    }
}

/// A ``FlowEvent`` with the moment it happened, read from a monotonic clock as the change was
/// made: durations computed from these are the flow's own, not its observer's delivery times.
public struct TimedFlowEvent: Sendable {
    /// When the change happened.
    public let time: ContinuousClock.Instant
    /// What changed.
    public let event: FlowEvent

    /// Pairs an event with its moment.
    public init(time: ContinuousClock.Instant, event: FlowEvent) {
        self.time = time
        self.event = event
    }
}
