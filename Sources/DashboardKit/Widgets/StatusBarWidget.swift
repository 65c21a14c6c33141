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
            let start = x
            // A key that can do nothing for the selection is greyed out.
            x += grid.put(" ", x: x, y: rect.y, role: offered ? .keyHint : .dim, limit: end - x)
            // Piece by piece, so that a click on `C` of `C R` acts as C, on `R` as R (btop).
            for part in hint.keyParts {
                let width = grid.put(glyphs.fold(part.text), x: x, y: rect.y, role: offered ? .keyHint : .dim, limit: end - x)
                if let key = part.key { grid.hitMap.add(.key(key), Rect(x: x, y: rect.y, width: width, height: 1)) }
                x += width
            }
            x += grid.put(" \(hint.word) ", x: x, y: rect.y, role: offered ? .normal : .dim, limit: end - x)
            // A hint of one key acts as it wherever it is clicked, its word and padding included.
            if let key = hint.onlyKey { grid.hitMap.add(.key(key), Rect(x: start, y: rect.y, width: x - start, height: 1)) }
        }
    }
}
