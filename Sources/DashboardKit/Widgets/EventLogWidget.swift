/// The event log with time stamps, newest at the bottom, scrolled back with PgUp/PgDn. While it
/// has the keys (`L`, see ``LogFocus``) it draws its frame as focused, a cursor on one line, the
/// search's matches highlighted, and only the chosen flow's lines when narrowed to one.
struct EventLogWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        guard let focus = model.logFocus else { return renderFollowing(into: &grid, in: rect) }
        let lines = model.shared.focusedLogLines
        let cursor = model.shared.logCursorIndex(in: lines)
        var title = ["Event log — keys here (L leaves)"]
        if !focus.search.isEmpty { title.append("search \"\(focus.search)\" (n N)") }
        if let flow = focus.onlyFlow { title.append("only \(flow) (f: every line)") }
        let inner = Panel(title: title.joined(separator: " — "), glyphs: glyphs, focused: true).draw(into: &grid, in: rect)
        guard inner.height > 0, let cursor else { return }
        // The cursor's line stays in view, as low as it can be: the newest lines show under it.
        let end = min(max(cursor + 1, inner.height), lines.count)
        let window = lines[max(end - inner.height, 0)..<end]
        for (offset, line) in window.enumerated() {
            let y = inner.y + offset
            put(line.entry, into: &grid, x: inner.x, y: y, width: inner.width, search: focus.search)
            if window.startIndex + offset == cursor { grid.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), role: .selection) }
        }
    }

    /// The log as it follows the newest lines, or as PgUp/PgDn scrolled it.
    private func renderFollowing(into grid: inout CellGrid, in rect: Rect) {
        let log = model.board.log
        let rows = max(rect.height - 2, 0)
        let scroll = min(model.logScroll, log.maxScroll(count: rows))
        let title = scroll > 0 ? "Event log — \(scroll) newer line(s) below (PgDn)" : "Event log"
        let inner = Panel(title: title, glyphs: glyphs).draw(into: &grid, in: rect)
        for (offset, entry) in log.window(count: inner.height, scroll: scroll).enumerated() {
            put(entry, into: &grid, x: inner.x, y: inner.y + offset, width: inner.width, search: "")
        }
    }

    /// One line, its time stamp first; each match of `search` (case ignored) highlighted.
    private func put(_ entry: LogEntry, into grid: inout CellGrid, x: Int, y: Int, width: Int, search: String) {
        let stamp = entry.time.compact
        let line = glyphs.fold(String(repeating: " ", count: max(8 - stamp.count, 0)) + stamp + "  " + entry.text)
        grid.put(line, x: x, y: y, role: entry.level.role, limit: width)
        guard !search.isEmpty else { return }
        let lowered = line.lowercased()
        var from = lowered.startIndex
        while let match = lowered.range(of: search.lowercased(), range: from..<lowered.endIndex) {
            let column = String(lowered[..<match.lowerBound]).displayWidth
            let length = String(lowered[match]).displayWidth
            if column < width { grid.restyle(Rect(x: x + column, y: y, width: min(length, width - column), height: 1), role: .notice) }
            from = match.upperBound
        }
    }
}
