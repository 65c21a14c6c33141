import TaskFlow

/// The top line: PAUSED, name, scenario, lock badge, queue length, counts per status (the
/// cancelled count only once there is one).
struct HeaderWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .header)
        let board = model.board
        var x = rect.x
        func segment(_ text: String, _ role: StyleRole) {
            x += grid.put(glyphs.fold(text), x: x, y: rect.y, role: role, limit: rect.x + rect.width - x)
        }
        // Most important first: a narrow screen cuts from the right.
        if model.paused { segment(" PAUSED ", .paused) }
        segment(" TaskFlow · \(model.scenario)  lock ", .header)
        segment(" \(board.lock.mode.text(board).truncated(to: 24, glyphs: glyphs)) ", board.lock.mode.role)
        segment(" queue \(board.lock.queue.count) ", .header)
        let counts = board.counts
        for category in PhaseCategory.allCases where category != .cancelled || counts[category] != nil {
            segment(" \(category.rawValue) ", .header)
            segment("\(counts[category, default: 0])", category.role)
        }
    }
}

extension PhaseCategory {
    /// The role of this category's counter in the header.
    var role: StyleRole {
        switch self {
        case .waiting: .statusWaiting
        case .running: .statusRunning
        case .rollingBack: .statusRollingBack
        case .done: .statusCompleted
        case .failed: .statusFailed
        case .cancelled: .statusCancelled
        case .undone: .statusUndone
        }
    }
}
