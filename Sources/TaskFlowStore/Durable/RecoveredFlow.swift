import TaskFlow

/// A journaled flow that ``DurableFlows/recover()`` (or a retry, or an undo after a restart)
/// rolled back, and how that ended.
public struct RecoveredFlow: Sendable, CustomStringConvertible {
    /// The flow's id in the journal (the id it had in its process).
    public let id: FlowID
    /// Its title.
    public let title: String
    /// The manager's flow that ran the rollback (what a dashboard showed unwinding).
    public let rolledBackAs: FlowID
    /// Nil when every revert ran (the journal shows the flow rolled back, or undone); else the
    /// `RollbackIncompleteError` naming each revert that failed or could not run (the journal
    /// keeps the flow ``DurableFlowState/rollbackIncomplete`` with that reason).
    public let error: (any Error)?

    /// Whether every stored revert ran.
    public var isComplete: Bool { error == nil }

    /// `flow #3 "Publish": rolled back` or `…: rollback incomplete: <reason>`.
    public var description: String {
        "flow \(id) \"\(title)\": " + (error.map { "rollback incomplete: \($0)" } ?? "rolled back")
    }
}
