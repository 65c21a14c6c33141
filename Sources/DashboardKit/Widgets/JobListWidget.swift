import Foundation
import TaskFlow

/// The jobs view's list: every job of the store, oldest first: id, kind, state, retries, and
/// why it waits, who runs it or why it failed, countdowns running between two listings.
struct JobListWidget: Widget {
    let model: DashboardModel
    let tab: StoreTab
    let glyphs: Glyphs

    private var store: StoreBoard { tab.board }

    private static let minimumID = 7, kind = 18, state = 10, retries = 8
    /// The column coloured by the job's state.
    private static let stateColumn = 2

    func render(into grid: inout CellGrid, in rect: Rect) {
        let counts = StoredJobRow.State.allCases.compactMap { state in
            store.counts[state].map { "\(state.rawValue) \($0)" }
        }
        let switches = store.switches.map { "\($0.state) (\($0.key))" }
        let next = model.nextTabName.map { ["Tab: \($0)"] } ?? []
        let rows = tab.visibleRows
        let filter = tab.query.summary(shown: rows.count, of: store.rows.count).map { [$0] } ?? []
        let title = (["Jobs"] + filter + [glyphs.fold(store.name)] + switches + counts + next).joined(separator: " — ")
        let panel = Panel(title: title, glyphs: glyphs, focused: true)
        let inner = panel.draw(into: &grid, in: rect)
        panel.noteNextView(of: model, in: rect, into: &grid)
        guard inner.height >= 2 else { return }
        let idWidth = IDColumn.width(largest: store.rows.map(\.id.rawValue).max(), minimum: Self.minimumID)
        var columns = [("id", idWidth), ("kind", Self.kind), ("state", Self.state), ("retries", Self.retries)]
        columns.append(("note", max(inner.width - columns.reduce(0) { $0 + $1.1 }, 0)))
        var x = inner.x
        let schema = StoreTab.schema(now: model.now)
        for (heading, width) in columns {
            let mark = tab.query.mark(for: heading, schema, glyphs: glyphs)
            // The arrow may take the gap after the heading: `retries▼` in a column of 8.
            grid.put(heading + mark, x: x, y: inner.y, role: mark.isEmpty ? .dim : .title, limit: min(width, inner.x + inner.width - x))
            if let index = schema.column(named: heading) {
                grid.hitMap.add(.heading(column: index), Rect(x: x, y: inner.y, width: min(width, inner.x + inner.width - x), height: 1))
            }
            x += width
        }
        var body = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        if let error = store.error {
            grid.put(glyphs.fold("cannot list the store: \(error)"), x: body.x, y: body.y, role: .statusFailed, limit: body.width)
            body = Rect(x: body.x, y: body.y + 1, width: body.width, height: body.height - 1)
        }
        renderRows(rows, into: &grid, in: body, columns: columns.map(\.1))
    }

    private func renderRows(_ rows: ListedRows<StoredJobRow>, into grid: inout CellGrid, in body: Rect, columns: [Int]) {
        var body = body
        guard body.height > 0 else { return }
        guard !rows.isEmpty else {
            let text = store.listedAt == nil ? "listing the store…"
                : store.rows.isEmpty ? "no jobs in the store" : "no job matches the filter (Esc clears it)"
            grid.put(glyphs.fold(text), x: body.x + 1, y: body.y, role: .dim, limit: body.width - 1)
            return
        }
        if store.unlisted > 0 {
            // The last line says what the listing left out: a store may hold millions.
            let more = "… and \(store.unlisted) newer jobs (the oldest \(store.rows.count) are listed)"
            grid.put(glyphs.fold(more), x: body.x + 1, y: body.y + body.height - 1, role: .dim, limit: body.width - 1)
            body = Rect(x: body.x, y: body.y, width: body.width, height: body.height - 1)
            guard body.height > 0 else { return }
        }
        let selected = rows.firstIndex { $0.id == tab.selection } ?? 0
        let first = min(max(selected - body.height + 1, 0), max(rows.count - body.height, 0))
        for (offset, job) in rows.dropFirst(first).prefix(body.height).enumerated() {
            let y = body.y + offset
            let note = job.note { store.remaining(until: $0, now: model.now) }
            let cells = ["#\(job.id)", job.kind, job.state.rawValue, job.retriesText, note]
            var x = body.x
            for (column, (cell, width)) in zip(cells, columns).enumerated() {
                let role: StyleRole = column == Self.stateColumn ? job.state.role : .normal
                grid.put(glyphs.fold(cell).truncated(to: width - 1, glyphs: glyphs), x: x, y: y, role: role, limit: width - 1)
                x += width
            }
            if job.id == tab.selection {
                grid.restyle(Rect(x: body.x, y: y, width: body.width, height: 1), role: .selection)
            }
            grid.hitMap.add(.row(first + offset), Rect(x: body.x, y: y, width: body.width, height: 1))
        }
    }
}

extension StoredJobRow.State {
    /// The role that colours this state: the flow statuses' colours for the like states.
    var role: StyleRole {
        switch self {
        case .pending: .statusQueued
        case .running: .statusRunning
        case .parked, .scheduled: .statusWaiting
        case .failed, .damaged: .statusFailed
        }
    }
}
