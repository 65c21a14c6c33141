/// What the keyboard is doing: exactly one mode at a time, so that combinations that make no
/// sense (the help open while a question waits for its answer, a filter typed while quitting)
/// cannot be represented. Each mode has its own key table (see ``DashboardModel/handle(_:)``).
///
/// What holds in every mode is kept beside it: the shown view's own state (the flows view's
/// focus) and pause (``SharedState/paused``: what the screen shows, not what the keys do).
package enum Mode: Sendable, Hashable {
    /// Keys act on the shown view: its own keys, then ``KeyMap/rows``.
    case normal
    /// The help overlay is open; any key closes it and does nothing else.
    case help
    /// `/`: the shown view's filter is being typed; Enter keeps it, Esc clears it.
    case filter
    /// A view asked a yes/no question (undo this flow? remove this job?); only the answer acts.
    case confirm(Question)
    /// After the first `q`: active flows roll back before the program exits. Only the actions
    /// that still act while quitting do (moving around, the theme, `q` to exit at once).
    case quitting

    /// The question waiting for its answer, if any.
    package var question: Question? {
        if case .confirm(let question) = self { question } else { nil }
    }
}
