/// How many rows the scrollable panes show, as the model was last told (like bubbletea's
/// `WindowSizeMsg`): the session tells the model at each resize, so that scrolling keys stop
/// where the panes' content ends. The model never computes a layout itself.
package struct PaneRows: Sendable, Hashable {
    /// Lines of the event log in view.
    package let logRows: Int
    /// Rows of the detail pane (its step tree, after a failure message if any).
    package let detailRows: Int

    /// Pane rows as given; negative values count as zero.
    package init(logRows: Int, detailRows: Int) {
        self.logRows = max(logRows, 0)
        self.detailRows = max(detailRows, 0)
    }

    /// Nothing in view: the model's state before its first resize message.
    package static let none = PaneRows(logRows: 0, detailRows: 0)
}
