import TaskFlow

/// Why a durable flow, step, recovery or undo was refused. Each description is one line naming
/// the flow or step and what to do.
public enum DurableFlowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A step with a stored revert ran in a flow that ``DurableFlows/execute(title:access:body:)``
    /// did not start: there is no journal to write its revert to.
    case notDurable(step: String)
    /// A step's stored revert is of a kind no handler was registered for
    /// (``DurableFlows/register(_:retry:handler:)``): refused before the step ran.
    case noHandler(kind: String, step: String)
    /// Another flow of the journal has this id: ``DurableFlows/recover()`` (which reserves
    /// this process its ids) was not called before the first durable flow.
    case flowIDTaken(FlowID)
    /// The journal has no flow with this id in a state the request needs (a completed flow to
    /// undo, a rollback left incomplete to retry).
    case noSuchFlow(FlowID, needs: String)
    /// The flow was taken over by another process's recovery (this one was silent for longer
    /// than the store's lease, and judged dead) before it could complete: it rolls back.
    case takenOver(FlowID)
    /// A journaled step's revert cannot be run: its kind has no handler, or its JSON no longer
    /// decodes as the registered type. The flow's rollback stops there.
    case unrunnableRevert(step: String, reason: String)

    /// One line naming the flow or step and what to do.
    public var description: String {
        switch self {
        case .notDurable(let step):
            "step \"\(step)\" has a stored revert but its flow is not durable: start it with DurableFlows.execute"
        case .noHandler(let kind, let step):
            "step \"\(step)\": no handler registered for stored revert kind \"\(kind)\" (DurableFlows.register)"
        case .flowIDTaken(let id):
            "flow \(id) is already in the journal: call DurableFlows.recover() before the first durable flow"
        case .noSuchFlow(let id, let needs): "the journal has no \(needs) flow \(id)"
        case .unrunnableRevert(let step, let reason): "the revert of step \"\(step)\" cannot run: \(reason)"
        case .takenOver(let id):
            "flow \(id) was taken over by another process's recovery (this one was silent past its lease): it rolls back"
        }
    }
}
