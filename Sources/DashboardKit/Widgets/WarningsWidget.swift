/// The live warnings (``DashboardModel/warnings``), each a `⚠` line saying what is wrong, then
/// the rows it concerns, indented. When the pane is too short for every row, each warning keeps
/// one line, its text (summary and rows) cut to the width: every warning stays in sight.
struct WarningsWidget: Widget {
    let warnings: [DashboardWarning]
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let inner = Panel(title: "Warnings (\(warnings.count))", glyphs: glyphs).draw(into: &grid, in: rect)
        guard inner.height >= 1 else { return }
        let full = warnings.flatMap(Self.lines(of:))
        let lines = full.count <= inner.height ? full : warnings.map { ("⚠ \($0.text)", StyleRole.logWarning) }
        for (offset, line) in lines.prefix(inner.height).enumerated() {
            let text = glyphs.fold(line.0).truncated(to: inner.width, glyphs: glyphs)
            grid.put(text, x: inner.x, y: inner.y + offset, role: line.1, limit: inner.width)
        }
    }

    /// A warning's lines when there is room for all: its summary, each row named, how many more.
    static func lines(of warning: DashboardWarning) -> [(String, StyleRole)] {
        let more = warning.count - warning.rows.count
        return [("⚠ \(warning.summary)", .logWarning)] + warning.rows.map { ("  \($0)", .normal) }
            + (more > 0 ? [("  +\(more) more", .dim)] : [])
    }
}

/// The side pane beside the detail: the view's own panel (the lock, the worker processes) and,
/// while there are warnings, the warnings below it, or alone when the pane is too short for
/// both. With no warning the view's panel has the pane to itself, as before warnings existed.
struct SidePaneWidget: Widget {
    /// The view's own side panel.
    let panel: any Widget
    let warnings: [DashboardWarning]
    let glyphs: Glyphs

    /// The fewest rows the view's panel keeps above the warnings: its border and two lines
    /// (the lock's mode and holders). Shorter, it gives the warnings the whole pane.
    static let minimumPanel = 4
    /// The fewest rows of the warnings panel: its border and one line.
    static let minimumWarnings = 3

    func render(into grid: inout CellGrid, in rect: Rect) {
        guard !warnings.isEmpty else { return panel.render(into: &grid, in: rect) }
        // Up to half the pane: every warning with its rows when that fits, else a line each.
        let wanted = warnings.reduce(2) { $0 + WarningsWidget.lines(of: $1).count }
        let height = max(min(wanted, rect.height / 2), Self.minimumWarnings)
        guard rect.height - height >= Self.minimumPanel else {
            return WarningsWidget(warnings: warnings, glyphs: glyphs).render(into: &grid, in: rect)
        }
        let (top, bottom) = rect.splitBottom(height)
        panel.render(into: &grid, in: top)
        WarningsWidget(warnings: warnings, glyphs: glyphs).render(into: &grid, in: bottom)
    }
}
