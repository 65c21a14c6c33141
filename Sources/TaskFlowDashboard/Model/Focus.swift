import TaskFlow

/// Which pane the arrow keys move in.
public enum Focus: Sendable, Hashable {
    /// ↑/↓ select a flow.
    case flows
    /// ↑/↓ scroll the selected flow's step tree.
    case detail
}

/// A question the status bar asks and the next key answers.
public enum Prompt: Sendable, Hashable {
    /// `u` on a completed write flow: undo it? `y`/`n`.
    case confirmUndo(FlowID)
    /// `/`: the filter text is being typed.
    case filter
}
