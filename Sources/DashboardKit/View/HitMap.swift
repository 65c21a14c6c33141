/// What a click on a cell means, as the frame that drew it knows: the rendering notes each
/// clickable thing where it draws it, so a click finds what the user saw there, however the
/// widgets laid it out.
package enum HitTarget: Sendable, Hashable {
    /// The row at this index of the shown list as shown (filtered, sorted).
    case row(Int)
    /// The heading of this column of the shown list's schema (``ListSchema/columns``).
    case heading(column: Int)
    /// The name of the view at this index of ``DashboardModel/tabs`` (a panel title's `Tab: …`).
    case view(Int)
    /// A status bar hint: a click acts as this key.
    case key(Key)
}

/// Where one frame drew its panes and clickable things (see ``HitTarget``), in screen cells:
/// the render fills it beside the cells (``CellGrid/hitMap``), the session keeps the last
/// drawn one to read the mouse with. Empty before the first frame and when the screen is too
/// small: clicks then mean nothing.
package struct HitMap: Sendable, Hashable {
    /// The body's panes, in the order drawn.
    package private(set) var panes: [Area<DashboardPane>] = []
    /// The clickable things, in the order drawn.
    package private(set) var targets: [Area<HitTarget>] = []

    /// Nothing drawn.
    package init() {}

    /// A rectangle and what it holds.
    package struct Area<Value: Sendable & Hashable>: Sendable, Hashable {
        /// Where.
        package let rect: Rect
        /// What.
        package let value: Value
    }

    /// Notes that `pane` was drawn in `rect`; an empty rectangle is left out.
    package mutating func add(_ pane: DashboardPane, _ rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        panes.append(Area(rect: rect, value: pane))
    }

    /// Notes that `target` was drawn in `rect`; an empty rectangle is left out.
    package mutating func add(_ target: HitTarget, _ rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        targets.append(Area(rect: rect, value: target))
    }

    /// The pane at column `x`, row `y`, if any; the last drawn wins where two overlap.
    package func pane(x: Int, y: Int) -> DashboardPane? {
        panes.last { $0.rect.contains(x: x, y: y) }?.value
    }

    /// The clickable thing at column `x`, row `y`, if any; the last drawn wins where two overlap.
    package func target(x: Int, y: Int) -> HitTarget? {
        targets.last { $0.rect.contains(x: x, y: y) }?.value
    }

    /// Where `target` was drawn first, if it was: tests click there.
    package func rect(of target: HitTarget) -> Rect? {
        targets.first { $0.value == target }?.rect
    }

    /// Where `pane` was drawn, if it was.
    package func rect(of pane: DashboardPane) -> Rect? {
        panes.first { $0.value == pane }?.rect
    }
}

extension Rect {
    /// Whether the cell at column `x`, row `y` lies inside.
    package func contains(x: Int, y: Int) -> Bool {
        x >= self.x && x < self.x + width && y >= self.y && y < self.y + height
    }
}
