import TaskFlow

/// The queues view's list: each queue's heading (running/limit, waiting, paused), then its
/// jobs in ``QueueBoard/jobs(of:)`` order — running with progress and attempt, retrying with a
/// live countdown, waiting in start order with priority and unmet dependencies, then finished.
struct QueueListWidget: Widget {
    let model: DashboardModel
    let tab: QueuesTab
    let glyphs: Glyphs

    private var board: QueueBoard { tab.board }

    private static let minimumID = 6, priority = 8, state = 11, progress = 16
    /// The title column's share of what the fixed columns leave.
    private static let titleShare = 45

    func render(into grid: inout CellGrid, in rect: Rect) {
        let counts = ["succeeded", "failed", "cancelled"].compactMap { word in board.endedCounts[word].map { "\(word) \($0)" } }
        let next = model.nextTabName.map { ["Tab: \($0)"] } ?? []
        let lines = tab.visibleLines
        let shown = lines.count - board.queues.count
        let filter = tab.query.summary(shown: shown, of: board.jobs.count).map { [$0] } ?? []
        let sort = sortText.map { [$0] } ?? []
        let title = (["Job queues"] + counts + filter + sort + next).joined(separator: " — ")
        let panel = Panel(title: title, glyphs: glyphs, focused: true)
        let inner = panel.draw(into: &grid, in: rect)
        panel.noteNextView(of: model, in: rect, into: &grid)
        guard inner.height >= 1 else { return }
        let idWidth = IDColumn.width(largest: board.jobs.keys.map(\.rawValue).max(), minimum: Self.minimumID)
        let selected = tab.selection.flatMap(lines.firstIndex) ?? 0
        let first = min(max(selected - inner.height + 1, 0), max(lines.count - inner.height, 0))
        for (offset, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            let row = Rect(x: inner.x, y: inner.y + offset, width: inner.width, height: 1)
            switch line {
            case .queue(let title): renderHeading(title, into: &grid, in: row)
            case .job(let id): board.jobs[id].map { renderJob($0, into: &grid, in: row, idWidth: idWidth) }
            }
            if line == tab.selection { grid.restyle(row, role: .selection) }
            grid.hitMap.add(.row(first + offset), row)
        }
    }

    /// "by title▲" while the jobs are sorted: the list has no headings to mark.
    private var sortText: String? {
        let schema = QueuesTab.schema(now: model.now)
        guard let sort = tab.query.sort, schema.columns.indices.contains(sort.column) else { return nil }
        let name = schema.columns[sort.column].name
        return "by " + name + tab.query.mark(for: name, schema, glyphs: glyphs)
    }

    private func renderHeading(_ title: String, into grid: inout CellGrid, in row: Rect) {
        guard let queue = board.queue(titled: title) else { return }
        let waiting = board.waitingCount(of: title)
        let kind = queue.description.isBlocking ? "blocking, \(queue.description.maxConcurrent) threads" : "limit \(queue.description.maxConcurrent)"
        var x = row.x
        x += grid.put(glyphs.fold(title).truncated(to: row.width / 2, glyphs: glyphs), x: x, y: row.y, role: .title, limit: row.width / 2)
        let facts = "  \(board.activeCount(of: title))/\(queue.description.maxConcurrent) running · \(waiting) waiting · \(kind)"
        x += grid.put(glyphs.fold(facts), x: x, y: row.y, role: .dim, limit: row.x + row.width - x)
        if queue.isPaused {
            grid.put(" · paused (P resumes)", x: x, y: row.y, role: .paused, limit: row.x + row.width - x)
        }
    }

    private func renderJob(_ job: QueuedJobRow, into grid: inout CellGrid, in row: Rect, idWidth: Int) {
        let fixed = 2 + idWidth + Self.priority + Self.state + Self.progress
        let titleWidth = max((row.width - fixed) * Self.titleShare / 100, 8)
        var x = row.x + 2
        let cells: [(String, Int, StyleRole)] = [
            ("#\(job.info.id.rawValue)", idWidth, .dim),
            (job.info.title, titleWidth, .normal),
            (job.info.priority.description, Self.priority, job.info.priority == .high ? .notice : .dim),
            (job.status.name, Self.state, job.status.role),
        ]
        for (text, width, role) in cells {
            grid.put(glyphs.fold(text).truncated(to: width - 1, glyphs: glyphs), x: x, y: row.y, role: role, limit: width - 1)
            x += width
        }
        if job.status == .running {
            ProgressBar(fraction: job.progress ?? 0, glyphs: glyphs).render(into: &grid, x: x, y: row.y, width: Self.progress - 1)
            x += Self.progress
        }
        let note = glyphs.fold(note(for: job))
        grid.put(note.truncated(to: row.x + row.width - x, glyphs: glyphs), x: x, y: row.y, role: .dim, limit: row.x + row.width - x)
    }

    /// What the last column says: the attempt, the countdown to the next one, the unmet
    /// dependencies or why it failed.
    private func note(for job: QueuedJobRow) -> String {
        let attempt = job.attemptText.map { [$0] } ?? []
        switch job.status {
        case .running:
            return attempt.joined()
        case .retrying:
            let remaining = max((job.nextAttemptAt ?? model.now) - model.now, .zero)
            return (["next in \(remaining.delayText)"] + attempt + (job.lastError.map { ["last: \($0)"] } ?? [])).joined(separator: " · ")
        case .waiting:
            let unmet = board.unmet(job)
            return unmet.isEmpty ? "ready" : "after " + unmet.map { "\"\($0)\"" }.joined(separator: ", ")
        case .succeeded:
            return job.attempt > 1 ? "in \(job.attempt) attempts" : ""
        case .failed(let message):
            return message
        case .cancelled:
            return ""
        }
    }
}

extension JobStatus {
    /// The role that colours this status: the flow phases' colours for the like states.
    var role: StyleRole {
        switch self {
        case .waiting: .statusQueued
        case .running: .statusRunning
        case .retrying: .statusWaiting
        case .succeeded: .statusCompleted
        case .failed: .statusFailed
        case .cancelled: .statusCancelled
        }
    }
}
