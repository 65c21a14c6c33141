/// Where a journaled flow is, as the journal records it.
public enum DurableFlowState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Its body runs (or ran, in a process that died: ``DurableFlows/recover()`` rolls it back).
    case running
    /// Completed: its stored reverts are kept while it is in the undo history.
    case completed
    /// A rollback or undo is under way (a crash in it: recovery resumes it where it stopped).
    case rollingBack
    /// Rolled back in full (cancelled, failed, or recovered after a crash).
    case rolledBack
    /// Undone in full.
    case undone
    /// A stored revert kept failing, or could not be run (undecodable, no handler): the flow
    /// stays in the journal, with the reason, until a person retries it
    /// (``DurableFlows/retryRollback(_:)``).
    case rollbackIncomplete

    /// Whether nothing more will happen to it by itself.
    public var isFinished: Bool {
        switch self {
        case .running, .rollingBack: false
        case .completed, .rolledBack, .undone, .rollbackIncomplete: true
        }
    }
}
