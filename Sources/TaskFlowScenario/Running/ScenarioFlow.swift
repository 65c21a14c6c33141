import TaskFlow

/// One submission of a scenario flow: its handle on the manager and where it comes from.
package struct ScenarioFlow: Sendable {
    /// The handle: cancel, undo, await it.
    package let handle: TaskFlow<Void>
    /// Which `[[flow]]` of the scenario it is (index into ``Scenario/flows``).
    package let flowIndex: Int
    /// Which submission of that flow, from 0.
    package let submission: Int

    /// The flow's identity on the manager.
    package var id: FlowID { handle.id }
    /// The title it was submitted with (with a " (2/3)" suffix when the flow repeats).
    package var title: String { handle.title }
}

/// How a submitted flow ended.
package struct FlowOutcome: Sendable {
    /// The flow.
    package let flow: ScenarioFlow
    /// Its final status.
    package let status: FlowStatus
}
