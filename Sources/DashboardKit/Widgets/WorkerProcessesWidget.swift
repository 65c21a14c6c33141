/// The processes running workers on the durable job store, in the jobs view where the flows'
/// views show the lock (store jobs do not take it): host, pid, jobs held of workers started,
/// and the last heartbeat, which turns into a warning once older than the process's lease.
struct WorkerProcessesWidget: Widget {
    let model: DashboardModel
    let store: StoreBoard
    let glyphs: Glyphs

    private static let pid = 8, jobs = 7, heartbeat = 13

    func render(into grid: inout CellGrid, in rect: Rect) {
        let title = "Worker processes (\(store.processes.count))"
        let inner = Panel(title: title, glyphs: glyphs).draw(into: &grid, in: rect)
        guard inner.height >= 1 else { return }
        guard !store.processes.isEmpty else {
            let text = store.listedAt == nil ? "listing the store…" : "no process runs workers on this store"
            grid.put(glyphs.fold(text), x: inner.x, y: inner.y, role: .dim, limit: inner.width)
            return
        }
        let host = max(inner.width - Self.pid - Self.jobs - Self.heartbeat, 6)
        let columns = [host, Self.pid, Self.jobs, Self.heartbeat]
        put(["host", "pid", "jobs", "heartbeat"], roles: Array(repeating: .dim, count: 4), columns: columns, y: inner.y, in: &grid, inner)
        for (offset, process) in store.processes.prefix(inner.height - 1).enumerated() {
            let age = store.age(of: process.lastHeartbeat, now: model.now)
            // The marker is kept whole: a long host name is cut before it, not it.
            let marker = process.isThisStore ? " (this)" : ""
            let name = glyphs.fold(process.host).truncated(to: max(host - 1 - marker.count, 1), glyphs: glyphs) + marker
            let cells = process.damage == nil
                ? [name, "\(process.pid)", "\(process.runningJobs)/\(process.workers)", process.heartbeatText(age: age)]
                : [name, "?", "\(process.runningJobs)/?", process.heartbeatText(age: age)]
            let beat: StyleRole = process.isSilent(age: age) ? .statusFailed : .statusRunning
            put(cells, roles: [.normal, .normal, .normal, beat], columns: columns, y: inner.y + 1 + offset, in: &grid, inner)
        }
    }

    /// One line of cells, each cut to its column (one blank column between them).
    private func put(_ cells: [String], roles: [StyleRole], columns: [Int], y: Int, in grid: inout CellGrid, _ inner: Rect) {
        var x = inner.x
        for ((cell, role), width) in zip(zip(cells, roles), columns) {
            let limit = min(width - 1, inner.x + inner.width - x)
            grid.put(glyphs.fold(cell).truncated(to: max(limit, 0), glyphs: glyphs), x: x, y: y, role: role, limit: limit)
            x += width
        }
    }
}
