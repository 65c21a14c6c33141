import TaskFlow

extension DashboardModel {
    /// The job under the cursor in the queues view, if the cursor is on a job.
    public var selectedQueuedJob: QueuedJobRow? {
        guard case .job(let id) = queueSelection else { return nil }
        return queueBoard?.jobs[id]
    }

    /// Shows in-process job queues in the queues view (`Tab`), no job heard of yet; `showing`
    /// them opens the dashboard on that view.
    public mutating func attachQueues(_ queues: [QueueDescription], showing: Bool = false) {
        queueBoard = QueueBoard(queues: queues)
        queueSelection = queues.first.map { .queue($0.title) }
        if showing { tab = .queues }
    }

    /// Applies a queue event that happened at `time`; its line goes to the event log.
    public mutating func apply(_ event: JobEvent, at time: Duration) {
        advance(to: time)
        let selectedQueue = queueSelection.flatMap { queueBoard?.queueTitle(of: $0) }
        queueBoard?.apply(event, at: time)
        keepQueueSelection(in: selectedQueue)
        if let line = queueBoard?.line(for: event) { note(line.text, level: line.level, at: time) }
    }

    /// The views `Tab` goes through: the flows, and the queues and the store when attached.
    var tabs: [Tab] {
        Tab.allCases.filter { tab in
            switch tab {
            case .flows: true
            case .queues: queueBoard != nil
            case .store: store != nil
            }
        }
    }

    /// The view `Tab` goes to from this one.
    public var nextTab: Tab {
        let tabs = tabs
        return tabs[((tabs.firstIndex(of: tab) ?? 0) + 1) % tabs.count]
    }

    /// `Tab`: the next view with something to show; with only the flows, a notice says how to
    /// get more.
    mutating func switchTab() {
        guard tabs.count > 1 else {
            notice = "no jobs to show: play a scenario with [[queue]] tables (taskflow demo jobs), or start with --store PATH"
            return
        }
        tab = nextTab
    }

    /// ↑/↓/Home/End in the queues view: through the queues' headings and jobs.
    mutating func moveQueueSelection(_ action: KeyAction) {
        guard let lines = queueBoard?.lines, !lines.isEmpty else { return }
        let current = queueSelection.flatMap(lines.firstIndex) ?? 0
        let index = switch action {
        case .up: max(current - 1, 0)
        case .down: min(current + 1, lines.count - 1)
        case .first: 0
        default: lines.count - 1
        }
        queueSelection = lines[index]
    }

    /// `c` in the queues view: cancels the selected job at once (a cancelled job can be
    /// retried, so nothing is lost for good and no question is asked).
    mutating func cancelSelectedQueuedJob() -> [Command] {
        guard let job = selectedQueuedJob else {
            notice = "c cancels a job: select one (↑↓)"
            return []
        }
        guard !job.status.isFinished else {
            notice = "\"\(job.info.title)\" \(job.status.name) already: nothing to cancel"
            return []
        }
        notice = "cancelling \"\(job.info.title)\""
        return [.cancelQueuedJob(job.info.id)]
    }

    /// `r` in the queues view: runs the selected failed or cancelled job again.
    mutating func retrySelectedQueuedJob() -> [Command] {
        guard let job = selectedQueuedJob, job.canRetry else {
            let what = selectedQueuedJob.map { "\"\($0.info.title)\" is \($0.status.name)" } ?? "no job selected"
            notice = "\(what): r retries a failed or cancelled job"
            return []
        }
        return [.retryQueuedJob(job.info.id)]
    }

    /// `P` in the queues view: pauses the selected line's queue, or resumes it.
    mutating func pauseSelectedQueue() -> [Command] {
        guard tab == .queues, let title = queueSelection.flatMap({ queueBoard?.queueTitle(of: $0) }),
              let queue = queueBoard?.queue(titled: title)
        else {
            notice = "P pauses or resumes a job queue: select one in the queues view (Tab)"
            return []
        }
        let pause = !queue.isPaused
        notice = "queue \"\(title)\" \(pause ? "paused: no job starts" : "resumed")"
        return [.setQueuePaused(title, pause)]
    }

    /// Keeps the cursor on a line that is still shown: a job the board let go (finished long
    /// ago) gives way to its queue's heading.
    private mutating func keepQueueSelection(in queue: String?) {
        guard case .job(let id) = queueSelection, queueBoard?.jobs[id] == nil else { return }
        queueSelection = (queue ?? queueBoard?.queues.first?.description.title).map { .queue($0) }
    }
}
