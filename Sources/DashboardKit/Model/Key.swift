/// A key press, decoded by a backend. The model turns keys into changes and ``Command``s.
/// A mouse event comes the same way (``mouse(_:)``), so that it keeps its place among the keys
/// typed around it; the session, which knows where the last frame drew what, turns it into
/// model messages (see ``PointerAction``).
package enum Key: Sendable, Hashable {
    /// ↑ (also `k`).
    case up
    /// ↓ (also `j`).
    case down
    /// PgUp: the log scrolls back.
    case pageUp
    /// PgDn: the log scrolls forward.
    case pageDown
    /// ←: a replay's previous event.
    case left
    /// →: a replay's next event.
    case right
    /// Home: the first flow.
    case home
    /// End: the last flow.
    case end
    /// Tab: the flows or the jobs.
    case tab
    /// Enter (Return).
    case enter
    /// Esc.
    case escape
    /// Backspace (DEL or ^H).
    case backspace
    /// A printable character (`q`, `/`, a letter of a filter).
    case character(Character)
    /// A click or a wheel turn at a cell of the screen (only when the mouse is on).
    case mouse(MouseEvent)
}
