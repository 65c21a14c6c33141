import TaskFlow

/// One submission of a scenario flow: its handle on the manager and where it comes from.
public struct ScenarioFlow: Sendable {
    /// The handle: cancel, undo, await it.
    public let handle: TaskFlow<Void>
    /// Which `[[flow]]` of the scenario it is (index into ``Scenario/flows``).
    public let flowIndex: Int
    /// Which submission of that flow, from 0.
    public let submission: Int

    /// The flow's identity on the manager.
    public var id: FlowID { handle.id }
    /// The title it was submitted with (with a " (2/3)" suffix when the flow repeats).
    public var title: String { handle.title }
}

/// How a submitted flow ended.
public struct FlowOutcome: Sendable {
    /// The flow.
    public let flow: ScenarioFlow
    /// Its final status.
    public let status: FlowStatus
}
