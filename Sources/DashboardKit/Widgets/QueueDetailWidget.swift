import TaskFlow

/// The selected job of the queues view in full — queue, priority, status, attempts, the
/// countdown to the next one, its last error, each dependency with its status and how past runs
/// of its title went (count, p50/p90/p99, spread) — or, on a queue's heading, that queue.
struct QueueDetailWidget: Widget {
    let model: DashboardModel
    let tab: QueuesTab
    let glyphs: Glyphs

    private var board: QueueBoard { tab.board }

    func render(into grid: inout CellGrid, in rect: Rect) {
        let (title, lines) = content()
        let inner = Panel(title: title, glyphs: glyphs, focused: false).draw(into: &grid, in: rect)
        guard !inner.isEmpty else { return }
        for (offset, line) in lines.prefix(inner.height).enumerated() {
            grid.put(glyphs.fold(line).truncated(to: inner.width, glyphs: glyphs), x: inner.x, y: inner.y + offset, role: .normal, limit: inner.width)
        }
    }

    private func content() -> (title: String, lines: [String]) {
        switch tab.selection {
        case .job(let id):
            guard let job = board.jobs[id] else { return ("Job", []) }
            return ("Job #\(id.rawValue) — \(job.status.name)   c cancel  r retry  P pause queue", details(of: job))
        case .queue(let title):
            guard let queue = board.queue(titled: title) else { return ("Queue", []) }
            return ("Queue \(title)   P \(queue.isPaused ? "resume" : "pause")", details(of: queue))
        case nil:
            return ("Job queues", ["no queue"])
        }
    }

    private func details(of job: QueuedJobRow) -> [String] {
        var lines = [
            "title      \(job.info.title)",
            "queue      \(job.info.queue), priority \(job.info.priority)",
            "status     \(job.status)",
            "attempts   \(job.attempt) of at most \(job.info.maxAttempts)",
        ]
        if let next = job.nextAttemptAt {
            lines.append("next run   in \(max(next - model.now, .zero).delayText)")
        }
        if let error = job.lastError { lines.append("last error \(error)") }
        for (index, id) in job.info.dependencies.enumerated() {
            let dependency = board.jobs[id].map { "#\(id.rawValue) \"\($0.info.title)\" \($0.status.name)" } ?? "#\(id.rawValue) succeeded"
            lines.append((index == 0 ? "after      " : "           ") + dependency)
        }
        // How this title's runs went before: is this one slow?
        lines += StatisticsText.pastRunLines(board.statistics.jobs[job.info.title], glyphs: glyphs)
        return lines
    }

    private func details(of queue: QueueBoard.Queue) -> [String] {
        let jobs = board.jobs(of: queue.description.title)
        let count = { (word: String) in jobs.filter { $0.status.name == word }.count }
        return [
            queue.description.isBlocking
                ? "blocking-work queue: \(queue.description.maxConcurrent) threads of its own"
                : "runs up to \(queue.description.maxConcurrent) jobs at once on the cooperative pool",
            queue.isPaused ? "paused: no job starts (P resumes)" : "accepting: waiting jobs start by priority, then in order",
            "running \(count("running")) · retrying \(count("retrying")) · waiting \(count("waiting"))",
            "kept finished: succeeded \(count("succeeded")) · failed \(count("failed")) · cancelled \(count("cancelled"))",
        ]
    }
}
