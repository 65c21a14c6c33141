import TaskFlow

/// What the keyboard is doing: exactly one mode at a time, so that combinations that make no
/// sense (the help open while a question waits for its answer, a filter typed while quitting)
/// cannot be represented. Each mode has its own key table (see ``DashboardModel/handle(_:)``).
///
/// Two things are kept beside the mode because they hold in every mode: ``Focus`` (which pane
/// the arrows move in) and pause (``DashboardModel/paused``: what the screen shows, not what
/// the keys do).
public enum Mode: Sendable, Hashable {
    /// Keys act on the flows: the table ``KeyMap/rows``.
    case normal
    /// The help overlay is open; any key closes it and does nothing else.
    case help
    /// `/`: the filter text is being typed; Enter keeps it, Esc clears it.
    case filter
    /// `u` on a completed write flow: undo it? `y` undoes, `n` or Esc keeps it.
    case confirmUndo(FlowID)
    /// `c` on a job in the jobs view: remove it from the store, for good? `y` removes it, `n` or
    /// Esc keeps it.
    case confirmCancelJob(Int64)
    /// After the first `q`: active flows roll back before the program exits. Only the actions in
    /// `KeyMap.whileQuitting` act (moving around, the theme, `q` to exit at once).
    case quitting
}

/// Which pane the arrow keys move in, whatever the mode.
public enum Focus: Sendable, Hashable {
    /// ↑/↓ select a flow.
    case flows
    /// ↑/↓ scroll the selected flow's step tree.
    case detail
}
