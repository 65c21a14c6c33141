/// The event log with time stamps, newest at the bottom, scrolled back with PgUp/PgDn.
struct EventLogWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let log = model.board.log
        let rows = max(rect.height - 2, 0)
        let scroll = min(model.logScroll, log.maxScroll(count: rows))
        let title = scroll > 0 ? "Event log — \(scroll) newer line(s) below (PgDn)" : "Event log"
        let inner = Panel(title: title, glyphs: glyphs).draw(into: &grid, in: rect)
        for (offset, entry) in log.window(count: inner.height, scroll: scroll).enumerated() {
            let stamp = entry.time.compact
            let line = String(repeating: " ", count: max(8 - stamp.count, 0)) + stamp + "  " + entry.text
            grid.put(glyphs.fold(line), x: inner.x, y: inner.y + offset, role: entry.level.role, limit: inner.width)
        }
    }
}
