import TaskFlow

/// What a warning is about: one of tokio-console's lints, for flows and jobs. Listed in the
/// order the warnings panel shows them, what may have lost or broken something first.
package enum WarningKind: String, Sendable, Hashable, CaseIterable {
    /// A rollback or an undo left some reverts failed: the state is partly changed.
    case failedRevert
    /// A process running workers on the job store stopped renewing its heartbeat past its
    /// lease: it died, hangs or lost the database, and its jobs go to other workers.
    case silentWorker
    /// A write flow in the lock's queue waited past ``WarningThresholds/writerWait`` or saw more
    /// than ``WarningThresholds/writerReadPhases`` read phases begin.
    case starvedWriter
    /// A running step went past ``WarningThresholds/stepStall`` without reporting progress.
    case stalledStep
    /// An unfinished job was retried more than ``WarningThresholds/jobRetries`` times.
    case retriedJob
    /// A paused queue has jobs waiting: nothing starts them until it is resumed.
    case pausedQueue
    /// The engine's undo history is full: each newly completed write flow pushes the oldest
    /// out, which can no longer be undone.
    case undoHistoryFull
}

/// One live warning: its kind, the rows it concerns (flows, jobs, queues, processes) and a
/// one-line text naming them. Computed from the model's state (``DashboardModel/warnings``),
/// never stored, so it goes away by itself as soon as its condition no longer holds.
package struct DashboardWarning: Sendable, Hashable {
    /// What it is about.
    package let kind: WarningKind
    /// What is wrong, counted: "2 steps without progress".
    package let summary: String
    /// The first rows concerned (at most ``namedRows``), the most urgent first, each described
    /// with the ids and titles a user finds them by: `#3 "Migrate archive": batch 2 75.0s`.
    package let rows: [String]
    /// How many rows it concerns in all (``rows`` names the first).
    package let count: Int

    /// The most rows a warning describes: a panel shows no more, and describing thousands of
    /// stalled flows at every frame would cost more than the frame.
    package static let namedRows = 5

    /// The one-line text: the summary, then the rows named, then how many more there are.
    package var text: String {
        let more = count > rows.count ? " (+\(count - rows.count) more)" : ""
        return rows.isEmpty ? summary : "\(summary): \(rows.joined(separator: ", "))\(more)"
    }

    /// A warning of `kind` for `count` rows, `rows` describing the first; nil when `count` is
    /// 0 (its condition does not hold).
    init?(_ kind: WarningKind, _ summary: String, rows: some Sequence<String>, count: Int) {
        guard count > 0 else { return nil }
        self.kind = kind
        self.summary = summary
        self.rows = Array(rows.prefix(Self.namedRows))
        self.count = count
    }
}

extension DashboardModel {
    /// The warnings that hold now, in ``WarningKind`` order, at most one per kind (naming every
    /// row it concerns), judged against ``SharedState/warningThresholds`` on the model's clock
    /// (``SharedState/now``). They read the live board, not the one `p` froze: a warning is
    /// about what happens now. Pure: rendering the same model twice gives the same warnings.
    package var warnings: [DashboardWarning] {
        let board = self.shared.live, now = self.shared.now, limits = self.shared.warningThresholds
        let queues = tab(QueuesTab.self)?.board, store = tab(StoreTab.self)?.board
        let all: [DashboardWarning?] = [
            Self.failedReverts(board),
            store.flatMap { Self.silentWorkers($0, now: now) },
            Self.starvedWriters(board, now: now, limits),
            Self.stalledSteps(board, now: now, limits),
            Self.retriedJobs(queues: queues, store: store, limits),
            queues.flatMap(Self.pausedQueues),
            Self.undoHistoryFull(board),
        ]
        return all.compactMap { $0 }
    }

    /// "1 step" / "2 steps".
    private static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        count == 1 ? singular : "\(count) \(plural)"
    }

    private static func named(_ flow: FlowInfo) -> String { "\(flow.id) \"\(flow.title)\"" }

    /// Flows with a revert that failed: a step marked so (a rollback still running, or one that
    /// ended), or a rollback incomplete whose status lists its failed reverts (the engine always
    /// lists them; one that lists none names nothing to repair). Stays while the flow is listed:
    /// nothing the dashboard sees repairs the state it left.
    private static func failedReverts(_ board: FlowBoard) -> DashboardWarning? {
        let failing = board.revertFailureIDs.sorted().compactMap(board.flow)
        let rows = failing.lazy.compactMap { row -> String? in
            let failed = row.steps.first { if case .revertFailed = $0.status { true } else { false } }
            if let failed, case .revertFailed(let message) = failed.status {
                return "\(named(row.info)): \(failed.info.title): \(message)"
            }
            guard row.phase == .rollbackIncomplete, let message = row.failureMessage, !message.isEmpty else { return nil }
            return "\(named(row.info)): \(message)"
        }
        let count = rows.count
        return DashboardWarning(.failedRevert, counted(count, "rollback incomplete", "rollbacks incomplete"), rows: rows, count: count)
    }

    /// Worker processes whose last heartbeat is older than their lease at `now` (damaged rows,
    /// which could not be read, are not silent: the jobs view marks them).
    private static func silentWorkers(_ store: StoreBoard, now: Duration) -> DashboardWarning? {
        let silent = store.processes.compactMap { process -> (WorkerProcessRow, Duration)? in
            let age = store.age(of: process.lastHeartbeat, now: now)
            return process.damage == nil && age > process.lease ? (process, age) : nil
        }.sorted { $0.1 > $1.1 }
        let rows = silent.lazy.map { "\($0.0.host):\($0.0.pid) \($0.0.heartbeatText(age: $0.1))" }
        return DashboardWarning(
            .silentWorker, counted(silent.count, "worker process silent", "worker processes silent"), rows: rows, count: silent.count)
    }

    /// Write flows in the lock's queue past either limit, the longest waiting first.
    private static func starvedWriters(_ board: FlowBoard, now: Duration, _ limits: WarningThresholds) -> DashboardWarning? {
        let ages = board.lock.queueAges
        let starved = board.lock.queue.compactMap { flow -> (FlowInfo, Duration, Int)? in
            guard flow.access == .write, let entry = ages.entry(flow.id) else { return nil }
            let waited = now - entry.since, phases = ages.readPhasesPassed(flow.id)
            return waited > limits.writerWait || phases > limits.writerReadPhases ? (flow, waited, phases) : nil
        }.sorted { $0.1 > $1.1 }
        let rows = starved.lazy.map { "\(named($0.0)) \($0.1.compact), \(counted($0.2, "1 read phase", "read phases"))" }
        return DashboardWarning(
            .starvedWriter, counted(starved.count, "writer starved of the lock", "writers starved of the lock"), rows: rows,
            count: starved.count)
    }

    /// Running steps that went past the limit without progress, the longest silent first. A
    /// step with a running step inside it is judged by that one; a step's silence ends with
    /// any news from inside it (a child started or ended), and a flow waiting to retry a step
    /// is waiting on purpose.
    private static func stalledSteps(_ board: FlowBoard, now: Duration, _ limits: WarningThresholds) -> DashboardWarning? {
        var stalled: [(flow: FlowInfo, step: StepNode, silence: Duration)] = []
        // Every flow at every frame: only those with a step running since before the cutoff
        // are read further (50,000 running flows' steps read at each frame cost a whole one).
        let cutoff = now - limits.stepStall
        for position in board.flows.indices {
            guard let since = board.flows[position].oldestRunningStart, since < cutoff else { continue }
            let row = board.flows[position]
            guard row.phase == .running || row.phase == .cancelling, row.pendingRetry == nil else { continue }
            let steps = row.steps
            for index in steps.indices where steps[index].status == .running {
                var lastNews = steps[index].progressAt ?? steps[index].startedAt
                var busyInside = false
                var inner = index + 1
                while inner < steps.endIndex, steps[inner].depth > steps[index].depth {
                    let step = steps[inner]
                    busyInside = busyInside || step.status == .running
                    lastNews = max(lastNews, step.progressAt ?? step.startedAt, step.endedAt ?? .zero)
                    inner += 1
                }
                let silence = now - lastNews
                if !busyInside, silence > limits.stepStall { stalled.append((row.info, steps[index], silence)) }
            }
        }
        // The longest silent first; ties in submission and step order (the sort is stable).
        stalled.sort { $0.silence > $1.silence }
        let rows = stalled.lazy.map { "\(named($0.flow)): \($0.step.info.title) \($0.silence.compact)" }
        return DashboardWarning(
            .stalledStep, counted(stalled.count, "step without progress", "steps without progress"), rows: rows, count: stalled.count)
    }

    /// Unfinished jobs retried more than the limit: queued jobs running or waiting to retry,
    /// then stored jobs not failed for good, the most retried first.
    private static func retriedJobs(queues: QueueBoard?, store: StoreBoard?, _ limits: WarningThresholds) -> DashboardWarning? {
        var retried: [(String, Int)] = []
        for job in queues.map({ Array($0.jobs.values) }) ?? [] where job.isActive {
            // Failed runs so far: the one under way is not a retry yet when it is the first.
            let retries = if case .retrying(let next, _) = job.status { next - 1 } else { job.attempt - 1 }
            if retries > limits.jobRetries { retried.append(("job \(job.info.id.rawValue) \"\(job.info.title)\" (\(job.info.queue))", retries)) }
        }
        for job in store?.rows ?? [] where job.state != .failed && job.state != .damaged && job.retries > limits.jobRetries {
            retried.append(("stored job \(job.id.rawValue) \(job.kind)", job.retries))
        }
        retried.sort { ($0.1, $1.0) > ($1.1, $0.0) }
        let rows = retried.lazy.map { "\($0.0) \(counted($0.1, "1 retry", "retries"))" }
        let times = limits.jobRetries == 1 ? "once" : "\(limits.jobRetries) times"
        return DashboardWarning(
            .retriedJob, counted(retried.count, "job retried more than \(times)", "jobs retried more than \(times)"), rows: rows,
            count: retried.count)
    }

    /// Paused queues with jobs waiting, in the queues' order.
    private static func pausedQueues(_ board: QueueBoard) -> DashboardWarning? {
        let paused = board.queues.compactMap { queue -> (String, Int)? in
            let waiting = queue.isPaused ? board.waitingCount(of: queue.description.title) : 0
            return waiting > 0 ? (queue.description.title, waiting) : nil
        }
        let rows = paused.lazy.map { "\"\($0.0)\" \($0.1) waiting" }
        return DashboardWarning(
            .pausedQueue, counted(paused.count, "paused queue with jobs waiting", "paused queues with jobs waiting"), rows: rows,
            count: paused.count)
    }

    /// The undo history, while full, naming the flow it pushed out last.
    private static func undoHistoryFull(_ board: FlowBoard) -> DashboardWarning? {
        guard board.undoHistory.isFull else { return nil }
        let last = board.undoHistory.lastExpired.map { id in board.flow(id).map { named($0.info) } ?? "\(id)" }
        let rows = last.map { ["\($0) and older flows can no longer be undone"] } ?? []
        return DashboardWarning(.undoHistoryFull, "undo history full", rows: rows, count: 1)
    }
}
