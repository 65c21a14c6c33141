/// A mouse event as a backend decoded it, in the screen's cells: what happened and where. It
/// holds no terminal type, so the memory backend and tests make them as the ncurses one does.
package struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    package enum Action: Sendable, Hashable {
        /// The first (left) button went down: a click.
        case press
        /// The wheel turned away from the user: the content moves back (up).
        case wheelUp
        /// The wheel turned towards the user: the content moves forward (down).
        case wheelDown
    }

    /// What the mouse did.
    package let action: Action
    /// The column, from 0 at the left.
    package let x: Int
    /// The row, from 0 at the top.
    package let y: Int

    /// `action` at column `x`, row `y`.
    package init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
