/// Where each panel goes for a given screen size. Recomputed on every frame, so a resize
/// takes effect at the next frame.
package struct DashboardLayout: Sendable, Hashable {
    /// Below this the dashboard shows a message instead of a garbled screen.
    package static let minimum = GridSize(width: 60, height: 16)

    /// The top line.
    package let header: Rect
    /// The shown view's list (flows, queues, jobs).
    package let list: Rect
    /// Its selection in full (a flow's step tree, a job).
    package let detail: Rect
    /// Beside the detail: the lock, or the store's worker processes.
    package let side: Rect
    /// The event log.
    package let log: Rect
    /// The bottom line.
    package let statusBar: Rect
    /// A replay's time bar, the line above the status bar; nil outside a replay.
    package let timeBar: Rect?

    /// The list's share of the body, in percent, unless the view says otherwise: about a third.
    package static let defaultListShare = 35

    /// The layout for `size` whose list takes `listShare` percent of the body (the job views give
    /// their list more room: their detail pane says less than a flow's step tree), with a line
    /// for a replay's time bar when `timeBar`, or nil when `size` is below ``minimum``.
    package init?(size: GridSize, listShare: Int = DashboardLayout.defaultListShare, timeBar: Bool = false) {
        guard size.width >= Self.minimum.width, size.height >= Self.minimum.height else { return nil }
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let (header, belowHeader) = screen.splitTop(1)
        let (body, bottom) = belowHeader.splitBottom(timeBar ? 2 : 1)
        let (timeBarLine, statusBar) = bottom.splitBottom(1)
        self.timeBar = timeBar ? timeBarLine : nil
        // The list gets its share, the log a quarter; each keeps at least a few rows inside its
        // border, and the detail and side panels share what is left.
        let (list, rest) = body.splitTop(max(5, body.height * listShare / 100))
        let (middle, log) = rest.splitBottom(max(4, body.height / 4))
        let (detail, side) = middle.splitLeft(middle.width * 62 / 100)
        self.header = header
        self.list = list
        self.detail = detail
        self.side = side
        self.log = log
        self.statusBar = statusBar
    }
}
