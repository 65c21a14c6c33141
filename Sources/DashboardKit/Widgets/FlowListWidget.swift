import TaskFlow

/// The flow list: id, R/W, title, status, progress bar, current step, elapsed time; the
/// selected flow highlighted and kept in view.
struct FlowListWidget: Widget {
    let model: DashboardModel
    let tab: FlowsTab
    let glyphs: Glyphs

    /// Column widths for one inner width. The id column fits the largest id listed (see
    /// ``IDColumn``); the title and the current step share what the other columns leave; on a
    /// narrow screen the step column goes first, and the status column cuts its longest name
    /// ("rollback incomplete" to "rollback in…").
    struct Columns {
        static let minimumID = 5, access = 2, progress = 16, elapsed = 8
        /// Wide enough for every status name from a 100-column terminal (98 inside the panel) on.
        static let wideStatus = 20, narrowStatus = 13, wideFrom = 98
        let id: Int
        let status: Int
        let title: Int
        let step: Int

        init(width: Int, largestID: Int?) {
            id = IDColumn.width(largest: largestID, minimum: Self.minimumID)
            status = width >= Self.wideFrom ? Self.wideStatus : Self.narrowStatus
            let fixed = id + Self.access + status + Self.progress + Self.elapsed + 1
            let flexible = max(width - fixed, 0)
            if flexible >= 30 {
                title = min(28, flexible / 2)
                step = flexible - title - 1
            } else {
                title = flexible
                step = 0
            }
        }
    }

    func render(into grid: inout CellGrid, in rect: Rect) {
        let rows = tab.visibleFlows(model.shared)
        let filter = tab.query.summary(shown: rows.count, of: model.board.flows.count).map { " — \($0)" } ?? ""
        let dropped = model.board.droppedFlows
        let history = dropped == 0 ? "" : " — \(dropped) older finished not kept"
        let next = model.nextTabName.map { " — Tab: \($0)" } ?? ""
        let panel = Panel(title: "Flows\(history)\(filter)\(next)", glyphs: glyphs, focused: tab.focus == .flows)
        let inner = panel.draw(into: &grid, in: rect)
        panel.noteNextView(of: model, in: rect, into: &grid)
        guard inner.height >= 2 else { return }
        // All the flows kept, not only those the filter shows: the column keeps its width as
        // the filter changes.
        let largestID = model.board.flows.map(\.info.id.rawValue).max()
        let columns = layout(Columns(width: inner.width, largestID: largestID))
        renderHeading(into: &grid, at: inner, columns: columns)
        let capacity = inner.height - 1
        let selected = rows.firstIndex { $0.info.id == tab.selection } ?? 0
        // Scroll just enough to keep the selection on screen.
        let first = min(max(selected - capacity + 1, 0), max(rows.count - capacity, 0))
        for (offset, row) in rows.dropFirst(first).prefix(capacity).enumerated() {
            let y = inner.y + 1 + offset
            renderRow(row, into: &grid, x: inner.x, y: y, columns: columns)
            grid.hitMap.add(.row(first + offset), Rect(x: inner.x, y: y, width: inner.width, height: 1))
            if row.info.id == tab.selection {
                grid.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1), role: .selection)
            }
        }
        if rows.isEmpty {
            let empty = tab.query.isFiltering ? "no flow matches the filter (Esc clears it)" : "no flows yet"
            grid.put(empty, x: inner.x + 1, y: inner.y + 1, role: .dim, limit: inner.width - 1)
        }
    }

    /// One column: its heading, the name it sorts by, width (including the one-cell gap after
    /// it) and cell.
    private struct Column {
        let heading: String
        var sortName: String?
        let width: Int
        let draw: (inout CellGrid, FlowRow, _ x: Int, _ y: Int) -> Void
    }

    private func layout(_ columns: Columns) -> [Column] {
        var layout = [
            text("id", columns.id) { "#\($0.info.id.rawValue)" },
            text("A", sortName: "access", Columns.access, role: { _ in .dim }) { $0.info.access == .write ? "W" : "R" },
            text("title", columns.title + 1) { $0.info.title },
            text("status", columns.status, role: { $0.phase.role }) { $0.phase.name },
            Column(heading: "progress", sortName: "progress", width: Columns.progress) { grid, row, x, y in
                ProgressBar(fraction: progress(of: row), glyphs: glyphs).render(into: &grid, x: x, y: y, width: Columns.progress - 1)
            },
        ]
        if columns.step > 0 {
            // Between two attempts of a retried step, the countdown to the next one.
            layout.append(text("step", columns.step + 1, role: { $0.pendingRetry == nil ? .dim : .statusWaiting }) { row in
                row.pendingRetry?.text(at: model.now) ?? row.current?.info.title ?? ""
            })
        }
        layout.append(text("elapsed", Columns.elapsed) { $0.elapsed(at: model.now).compact })
        return layout
    }

    /// A text column: the value cut to leave a one-cell gap.
    private func text(
        _ heading: String, sortName: String? = nil, _ width: Int, role: @escaping (FlowRow) -> StyleRole = { _ in .normal },
        _ value: @escaping (FlowRow) -> String
    ) -> Column {
        Column(heading: heading, sortName: sortName ?? heading, width: width) { [glyphs] grid, row, x, y in
            grid.put(glyphs.fold(value(row)).truncated(to: width - 1, glyphs: glyphs), x: x, y: y, role: role(row), limit: width - 1)
        }
    }

    private func renderHeading(into grid: inout CellGrid, at inner: Rect, columns: [Column]) {
        var x = inner.x
        let schema = FlowsTab.schema(now: model.now)
        for column in columns {
            let mark = column.sortName.map { tab.query.mark(for: $0, schema, glyphs: glyphs) } ?? ""
            // The arrow may take the gap after the heading: `A▲` in a column of 2.
            grid.put(
                column.heading + mark, x: x, y: inner.y, role: mark.isEmpty ? .dim : .title,
                limit: min(column.width, inner.x + inner.width - x))
            // The whole column's width, gap included: a click between two headings still sorts.
            if let index = column.sortName.flatMap(schema.column(named:)) {
                grid.hitMap.add(.heading(column: index), Rect(x: x, y: inner.y, width: min(column.width, inner.x + inner.width - x), height: 1))
            }
            x += column.width
        }
    }

    private func renderRow(_ row: FlowRow, into grid: inout CellGrid, x: Int, y: Int, columns: [Column]) {
        var x = x
        for column in columns {
            column.draw(&grid, row, x, y)
            x += column.width
        }
    }

    /// The current step's reported progress; 100 % once completed; nothing otherwise.
    private func progress(of row: FlowRow) -> Double? {
        if row.phase == .completed { return 1 }
        return row.current?.progress
    }
}
