import TaskFlow

/// The job queues view: each in-process queue with its jobs (a scenario's `[[queue]]` tables,
/// a program's own ``TaskFlow/JobQueue``s), the selected job or queue in full, the lock beside
/// them. Built from the queues' events alone; its keys sort and filter each queue's jobs,
/// cancel and retry them — one, or every job the filter matches — and pause queues.
package struct QueuesTab: ListView {
    /// What its keys do.
    package enum Action: Sendable, Hashable {
        case up, down, first, last, cancel, retry, pauseQueue, filter, clearFilter, cancelMatches, retryMatches
        case sort(ListQuery.SortKey)
    }

    /// The queues and their jobs.
    package private(set) var board: QueueBoard
    /// The line under the cursor.
    package private(set) var selection: QueueLine?
    /// The filter and the sort of each queue's jobs (see ``schema(now:)``).
    package var query = ListQuery()

    /// How its preferences name it.
    package static let preferenceKey = "job-queues"
    package static let filterAction = Action.filter
    package static let clearFilterAction = Action.clearFilter
    package static func sortAction(_ key: ListQuery.SortKey) -> Action { .sort(key) }
    package static let rowNoun = "jobs"

    /// What a queue's jobs sort and filter by: id, title, priority, state (in their life's
    /// order); the fields `state`, `queue`, `title`, `error`; plain words search the title and
    /// the queue. Queue headings always show, so `P` still reaches every queue.
    package static func schema(now: Duration) -> ListSchema<QueuedJobRow> { jobSchema }

    private static let jobSchema = ListSchema<QueuedJobRow>(
        columns: [
            ListColumn("id") { $0.info.id.rawValue },
            ListColumn("title") { $0.info.title.lowercased() },
            ListColumn("priority") { $0.info.priority.rawValue },
            ListColumn("state") { $0.status.lifeOrder },
        ],
        fields: [
            ("state", { $0.status.name }), ("queue", { $0.info.queue }), ("title", { $0.info.title }),
            ("error", { $0.lastError ?? "" }),
        ],
        text: { "\($0.info.title) \($0.info.queue)" })

    /// The view of `queues`, no job heard of yet, the cursor on the first queue.
    package init(queues: [QueueDescription]) {
        board = QueueBoard(queues: queues)
        selection = queues.first.map { .queue($0.title) }
    }

    package var name: String { "job queues" }

    /// Its detail pane says less than a flow's step tree: the list takes half the body.
    package var listShare: Int { 50 }

    package var keys: [KeyRow<Action>] { Self.keyRows }

    private static let keyRows: [KeyRow<Action>] = [
        KeyRow(
            keys: "↑ / k, ↓ / j", action: "select a queue or a job", hint: KeyHint("↑↓", "select"),
            bindings: [.up: .up, .character("k"): .up, .down: .down, .character("j"): .down]),
        KeyRow(keys: "Home / End", action: "select the first / the last line", bindings: [.home: .first, .end: .last]),
        KeyRow(keys: "c", action: "cancel the job", hint: KeyHint("c", "cancel"), bindings: [.character("c"): .cancel]),
        KeyRow(keys: "r", action: "run a failed or cancelled job again", hint: KeyHint("r", "retry"), bindings: [.character("r"): .retry]),
        KeyRow(keys: "P", action: "pause / resume the job's queue", hint: KeyHint("P", "pause queue"), bindings: [.character("P"): .pauseQueue]),
        KeyRow(
            keys: "C, R", action: "cancel / retry every job listed", hint: KeyHint("C R", "all"),
            bindings: [.character("C"): .cancelMatches, .character("R"): .retryMatches]),
        filterAndSortKeys,
    ]

    package func actsWhileQuitting(_ action: Action) -> Bool {
        switch action {
        case .up, .down, .first, .last, .clearFilter, .sort: true
        default: false
        }
    }

    /// Retry only for a failed or cancelled job.
    package func offers(_ action: Action, _ shared: SharedState) -> Bool {
        action != .retry || selectedJob?.canRetry == true
    }

    /// Retry countdowns and progress move while jobs run or wait for their next attempt.
    package func isAnimated(_ shared: SharedState) -> Bool { board.hasActiveJobs }

    package func panes(of model: DashboardModel, glyphs: Glyphs) -> TabPanes {
        TabPanes(
            list: QueueListWidget(model: model, tab: self, glyphs: glyphs), detail: QueueDetailWidget(model: model, tab: self, glyphs: glyphs),
            side: LockPanelWidget(board: model.board, glyphs: glyphs))
    }

    package mutating func perform(_ action: Action, _ shared: inout SharedState) -> [Command] {
        switch action {
        case .up, .down, .first, .last: move(action)
        case .filter: shared.mode = .filter
        case .clearFilter: clearFilter(&shared)
        case .sort(let key): return sortList(key, &shared)
        case .cancelMatches: askForEveryMatch(cancelling: true, &shared)
        case .retryMatches: askForEveryMatch(cancelling: false, &shared)
        case .cancel: return cancelSelectedJob(&shared.notice)
        case .retry: return retrySelectedJob(&shared.notice)
        case .pauseQueue: return pauseSelectedQueue(&shared.notice)
        }
        return []
    }

    /// The job under the cursor, if the cursor is on a job.
    package var selectedJob: QueuedJobRow? {
        guard case .job(let id) = selection else { return nil }
        return board.jobs[id]
    }

    /// Applies a queue event that happened at `time`; returns its event log line.
    mutating func apply(_ event: JobEvent, at time: Duration) -> LogLine? {
        let selectedQueue = selection.flatMap(board.queueTitle)
        board.apply(event, at: time)
        keepSelection(in: selectedQueue)
        return board.line(for: event)
    }

    // MARK: - Keys

    /// Every line shown, in order: each queue's heading, then its jobs that pass the filter, in
    /// the sort's order (the queue's own order, see ``QueueBoard/jobs(of:)``, unsorted).
    package var visibleLines: [QueueLine] {
        board.queues.flatMap { queue in
            let title = queue.description.title
            let jobs: [QueueLine] = query.apply(board.jobs(of: title), Self.jobSchema).map { .job($0.info.id) }
            return [QueueLine.queue(title)] + jobs
        }
    }

    /// The jobs shown, in order.
    private var visibleJobs: [QueuedJobRow] {
        visibleLines.compactMap { line in
            guard case .job(let id) = line else { return nil }
            return board.jobs[id]
        }
    }

    /// Keeps the cursor on a line still shown after the filter changed: a job the filter hides
    /// gives way to its queue's heading.
    package mutating func keepSelectionVisible(_ shared: SharedState) {
        let lines = visibleLines
        guard let selection, !lines.contains(selection) else { return }
        self.selection = board.queueTitle(of: selection).map { .queue($0) } ?? lines.first
    }

    /// `C` and `R`: every job shown (the filter's matches, when one is typed) that can still be
    /// cancelled or can run again, after a question that says how many.
    private func askForEveryMatch(cancelling: Bool, _ shared: inout SharedState) {
        let jobs = visibleJobs.filter { cancelling ? !$0.status.isFinished : $0.canRetry }
        guard !jobs.isEmpty else {
            shared.notice = cancelling ? "no unfinished job\(matchingText) to cancel" : "no failed or cancelled job\(matchingText) to retry"
            return
        }
        let count = Self.count(jobs.count)
        let verb = cancelling ? "Cancel" : "Retry"
        shared.mode = .confirm(Question(
            prompt: "\(verb) \(count)\(matchingText)?  y = \(verb.lowercased())   n = keep",
            yes: jobs.map { cancelling ? .cancelQueuedJob($0.info.id) : .retryQueuedJob($0.info.id) },
            yesNotice: cancelling ? "cancelling \(count)" : "running \(count) again", noNotice: "no job changed",
            yesLog: "\(verb.lowercased()) \(count)\(matchingText)"))
    }

    /// ↑/↓/Home/End: through the queues' headings and jobs.
    private mutating func move(_ action: Action) {
        switch action {
        case .up: move { current, _ in current - 1 }
        case .down: move { current, _ in current + 1 }
        case .first: move { _, _ in 0 }
        default: move { _, last in last }
        }
    }

    /// Moves the selection to the index `target` gives (from the current index and the last
    /// one) in the list as shown, kept within it.
    private mutating func move(_ target: (_ current: Int, _ last: Int) -> Int) {
        let lines = visibleLines
        guard !lines.isEmpty else { return }
        let current = selection.flatMap(lines.firstIndex) ?? 0
        selection = lines[min(max(target(current, lines.count - 1), 0), lines.count - 1)]
    }

    /// Selects job `id` (from the event log), clearing a filter that hides it; false when the
    /// board no longer keeps the job.
    package mutating func select(_ id: JobID) -> Bool {
        guard board.jobs[id] != nil else { return false }
        if !visibleLines.contains(.job(id)) { query.clearFilter() }
        selection = .job(id)
        return true
    }

    /// A click on the list: the line at `index` as shown (a queue's heading or a job) is
    /// selected; past the end, nothing changes.
    package mutating func selectRow(at index: Int, _ shared: SharedState) {
        let lines = visibleLines
        guard lines.indices.contains(index) else { return }
        selection = lines[index]
    }

    /// The wheel over the list: the cursor moves `lines` lines, stopping at either end. The
    /// detail pane does not scroll.
    package mutating func scroll(_ pane: DashboardPane, by lines: Int, _ shared: SharedState) {
        guard pane == .list else { return }
        move { current, _ in current + lines }
    }

    /// `c`: cancels the selected job at once (a cancelled job can be retried, so nothing is lost
    /// for good and no question is asked).
    private func cancelSelectedJob(_ notice: inout String?) -> [Command] {
        guard let job = selectedJob else {
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

    /// `r`: runs the selected failed or cancelled job again.
    private func retrySelectedJob(_ notice: inout String?) -> [Command] {
        guard let job = selectedJob, job.canRetry else {
            let what = selectedJob.map { "\"\($0.info.title)\" is \($0.status.name)" } ?? "no job selected"
            notice = "\(what): r retries a failed or cancelled job"
            return []
        }
        return [.retryQueuedJob(job.info.id)]
    }

    /// `P`: pauses the selected line's queue, or resumes it.
    private func pauseSelectedQueue(_ notice: inout String?) -> [Command] {
        guard let title = selection.flatMap(board.queueTitle), let queue = board.queue(titled: title) else {
            notice = "P pauses or resumes a job queue: select one"
            return []
        }
        let pause = !queue.isPaused
        notice = "queue \"\(title)\" \(pause ? "paused: no job starts" : "resumed")"
        return [.setQueuePaused(title, pause)]
    }

    /// Keeps the cursor on a line that is still shown: a job the board let go (finished long
    /// ago) gives way to its queue's heading.
    private mutating func keepSelection(in queue: String?) {
        guard case .job(let id) = selection, board.jobs[id] == nil else { return }
        selection = (queue ?? board.queues.first?.description.title).map { .queue($0) }
    }
}

extension DashboardModel {
    /// Applies a queue event that happened at `time` to the queues view, if one is attached; its
    /// line goes to the event log.
    package mutating func apply(_ event: JobEvent, at time: Duration) {
        advance(to: time)
        let line = update(QueuesTab.self) { $0.apply(event, at: time) } ?? nil
        if let line { note(line.text, level: line.level, at: time, subject: event.jobID.map(LogSubject.job)) }
    }
}

extension JobStatus {
    /// Where the status falls in a job's life, for a sort by state: waiting, running,
    /// retrying, then the ends.
    fileprivate var lifeOrder: Int {
        switch self {
        case .waiting: 0
        case .running: 1
        case .retrying: 2
        case .succeeded: 3
        case .failed: 4
        case .cancelled: 5
        }
    }
}
