/// The bottom line: the keys' hints (``DashboardModel/hints``), or the current mode's question,
/// or the outcome of the last key.
struct StatusBarWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .normal)
        switch model.mode {
        case .confirm(let question):
            put(question.prompt, .notice, into: &grid, rect)
        case .filter:
            if let error = model.shownTab.filterError {
                put("filter: \(model.shownTab.filter)_   \(error)", .statusFailed, into: &grid, rect)
            } else {
                put("filter: \(model.shownTab.filter)_   (Enter keeps it, Esc clears it)", .notice, into: &grid, rect)
            }
        case .normal, .quitting, .help:
            if let notice = model.notice ?? model.quitNotice {
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
        for (hint, offered) in model.hints {
            // A key that can do nothing for the selection is greyed out.
            x += grid.put(" " + glyphs.fold(hint.keys), x: x, y: rect.y, role: offered ? .keyHint : .dim, limit: end - x)
            x += grid.put(" \(hint.word) ", x: x, y: rect.y, role: offered ? .normal : .dim, limit: end - x)
        }
    }
}
