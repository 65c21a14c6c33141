import TaskFlow

/// The lock: its mode, the current holders, and the waiting queue in admission order; on the
/// bottom row, when one is free, how long flows waited to enter it (p50/p99).
struct LockPanelWidget: Widget {
    let board: FlowBoard
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let inner = Panel(title: "Lock", glyphs: glyphs).draw(into: &grid, in: rect)
        var lines: [(String, StyleRole)] = [("mode  \(board.lock.mode.text(board))", board.lock.mode.role)]
        lines.append(("holders (\(board.lock.holders.count))", .dim))
        // Only what fits is described: the queue can hold thousands of flows.
        lines += board.lock.holders.prefix(inner.height).map { ("  \(describe($0))", .normal) }
        lines.append(("queue (\(board.lock.queue.count))", .dim))
        lines += board.lock.queue.prefix(inner.height).enumerated().map {
            ("  \($0.offset + 1). \(describe($0.element))", .statusWaiting)
        }
        for (offset, line) in lines.prefix(inner.height).enumerated() {
            grid.put(glyphs.fold(line.0), x: inner.x, y: inner.y + offset, role: line.1, limit: inner.width)
        }
        // The waits come last: who holds the lock and who waits matter more on a short pane.
        if lines.count < inner.height, let waits = StatisticsText.summary("waits", board.lock.waits.histogram, percentiles: [50, 99]) {
            grid.put(waits.truncated(to: inner.width, glyphs: glyphs), x: inner.x, y: inner.y + inner.height - 1, role: .dim, limit: inner.width)
        }
    }

    private func describe(_ holder: FlowInfo) -> String {
        "\(holder.id) \(holder.access == .write ? "W" : "R") \(holder.title)"
    }
}

extension LockMode {
    /// The role of the lock badge in this mode.
    var role: StyleRole {
        switch self {
        case .idle: .lockIdle
        case .read: .lockRead
        case .write: .lockWrite
        }
    }

    /// The mode's ``text(holder:)`` with the writing flow's title looked up on `board`.
    func text(_ board: FlowBoard) -> String {
        text { board.flow($0)?.info.title ?? $0.description }
    }
}
