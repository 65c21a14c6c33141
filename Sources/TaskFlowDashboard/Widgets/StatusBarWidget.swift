/// The bottom line: the main keys, or the current prompt, or the outcome of the last key.
struct StatusBarWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    /// The main keys, as shown when nothing else needs saying. Help and quit come first: a
    /// narrow screen cuts from the right, and those two must always show.
    static let hints: [(key: String, action: String)] = [
        ("?", "help"), ("q", "quit"), ("↑↓", "select"), ("Enter", "detail"), ("c", "cancel"),
        ("C", "cancel all"), ("u", "undo"), ("p", "pause"), ("/", "filter"), ("t", "theme"),
    ]

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .normal)
        switch model.prompt {
        case .confirmUndo(let id):
            let title = model.live.flow(id)?.info.title ?? ""
            put("Undo \(id) \"\(title)\"? Its steps are reverted last-first.  y = undo   n = keep", .notice, into: &grid, rect)
        case .filter:
            put("filter: \(model.filter)_   (Enter keeps it, Esc clears it)", .notice, into: &grid, rect)
        case nil:
            if let notice = model.notice {
                put(notice, .notice, into: &grid, rect)
            } else {
                renderHints(into: &grid, rect)
            }
        }
    }

    private func put(_ text: String, _ role: StyleRole, into grid: inout CellGrid, _ rect: Rect) {
        grid.put(glyphs.fold(text), x: rect.x, y: rect.y, role: role, limit: rect.width)
    }

    private func renderHints(into grid: inout CellGrid, _ rect: Rect) {
        var x = rect.x
        let end = rect.x + rect.width
        for hint in Self.hints {
            x += grid.put(" " + glyphs.fold(hint.key), x: x, y: rect.y, role: .keyHint, limit: end - x)
            x += grid.put(" \(hint.action) ", x: x, y: rect.y, role: .normal, limit: end - x)
        }
    }
}
