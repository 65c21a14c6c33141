import TaskFlow

/// Something that submits flows for the dashboard to show: the built-in demo, or a caller's own
/// flows on their own manager.
public protocol Scenario: Sendable {
    /// The name shown in the header.
    var name: String { get }

    /// A new stream of every event of the manager the flows run on (``TaskFlowManager/events``).
    func events() -> AsyncStream<FlowEvent>

    /// Submits the flows and returns their handles, so the dashboard can cancel and undo them.
    @MainActor func start() -> [FlowHandle]
}
