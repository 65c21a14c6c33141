/// Where each panel goes for a given screen size. Recomputed on every frame, so a resize
/// takes effect at the next frame.
public struct DashboardLayout: Sendable, Hashable {
    /// Below this the dashboard shows a message instead of a garbled screen.
    public static let minimum = GridSize(width: 60, height: 16)

    /// The top line.
    public let header: Rect
    /// The flow list.
    public let flows: Rect
    /// The selected flow's step tree.
    public let detail: Rect
    /// The lock panel.
    public let lock: Rect
    /// The event log.
    public let log: Rect
    /// The bottom line.
    public let statusBar: Rect

    /// The layout for `size` showing `tab`, or nil when it is below ``minimum``. The job views
    /// give their list more room: their detail pane says less than a flow's step tree.
    public init?(size: GridSize, tab: Tab = .flows) {
        guard size.width >= Self.minimum.width, size.height >= Self.minimum.height else { return nil }
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let (header, belowHeader) = screen.splitTop(1)
        let (body, statusBar) = belowHeader.splitBottom(1)
        // The flow list gets about a third (a job list a half), the log a quarter; each keeps at
        // least a few rows inside its border, and the detail and lock panels share what is left.
        let share = tab == .flows ? 35 : 50
        let (flows, rest) = body.splitTop(max(5, body.height * share / 100))
        let (middle, log) = rest.splitBottom(max(4, body.height / 4))
        let (detail, lock) = middle.splitLeft(middle.width * 62 / 100)
        self.header = header
        self.flows = flows
        self.detail = detail
        self.lock = lock
        self.log = log
        self.statusBar = statusBar
    }
}
