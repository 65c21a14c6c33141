import DequeModule
import TaskFlow

/// What the dashboard knows of in-process job queues: each queue with its limit and paused
/// state, and each job it heard of, built from the queues' events alone, so every screen can
/// be reproduced from a list of events.
///
/// Finished jobs are kept up to ``finishedLimit`` (the oldest finished go first), so a queue
/// that runs for days keeps the board's memory bounded; unfinished jobs are always kept.
public struct QueueBoard: Sendable, Hashable {
    /// A queue as shown.
    public struct Queue: Sendable, Hashable {
        /// Its title, limit and kind.
        public let description: QueueDescription
        /// Whether it is paused, as its last event said.
        public internal(set) var isPaused: Bool
    }

    /// The queues, in the source's order.
    public private(set) var queues: [Queue]
    /// Every job kept, by id.
    public private(set) var jobs: [JobID: QueuedJobRow] = [:]
    /// Finished jobs kept, oldest first.
    private var finished: Deque<JobID> = []
    /// How many jobs ended in each final state, dropped ones included, by ``TaskFlow/JobStatus/name``.
    public private(set) var endedCounts: [String: Int] = [:]

    /// How many finished jobs are kept.
    public static let finishedLimit = 200

    /// The board of `queues`, no job heard of yet.
    public init(queues: [QueueDescription]) {
        self.queues = queues.map { Queue(description: $0, isPaused: $0.isPaused) }
    }

    /// Applies one event that happened at `time`.
    public mutating func apply(_ event: JobEvent, at time: Duration) {
        switch event {
        case .added(let info):
            jobs[info.id] = QueuedJobRow(info: info)
        case .started(let id, let attempt):
            jobs[id]?.status = .running
            jobs[id]?.attempt = attempt
            jobs[id]?.progress = nil
            jobs[id]?.nextAttemptAt = nil
        case .progress(let id, let fraction):
            jobs[id]?.progress = fraction
        case .attemptFailed(let id, let attempt, _, let error, let delay):
            jobs[id]?.status = .retrying(attempt: attempt + 1, at: .now)
            jobs[id]?.nextAttemptAt = time + delay
            jobs[id]?.lastError = error
        case .finished(let id, let status):
            finish(id, status, at: time)
        case .paused(let title, let paused):
            for index in queues.indices where queues[index].description.title == title { queues[index].isPaused = paused }
        }
    }

    private mutating func finish(_ id: JobID, _ status: JobStatus, at time: Duration) {
        guard var row = jobs[id] else { return }
        row.status = status
        row.endedAt = time
        row.nextAttemptAt = nil
        jobs[id] = row
        endedCounts[row.status.name, default: 0] += 1
        finished.append(id)
        while finished.count > Self.finishedLimit, let oldest = finished.popFirst() { jobs[oldest] = nil }
    }

    /// The event log's line for `event`, once applied: nil for progress and for the first
    /// start (the list shows it; retries' starts are logged).
    public func line(for event: JobEvent) -> EventText.Line? {
        switch event {
        case .added, .progress:
            return nil
        case .started(let id, let attempt):
            return attempt > 1 ? line(id, "attempt \(attempt) started", level: .info) : nil
        case .attemptFailed(let id, let attempt, let maxAttempts, let error, let delay):
            return line(id, "attempt \(attempt)/\(maxAttempts) failed: \(error); next in \(delay.delayText)", level: .warning)
        case .finished(let id, .succeeded):
            return line(id, "succeeded", level: .info)
        case .finished(let id, .failed(let message)):
            return line(id, "failed: \(message)", level: .error)
        case .finished(let id, _):
            return line(id, "cancelled", level: .warning)
        case .paused(let title, let paused):
            return EventText.Line(text: "queue \"\(title)\" \(paused ? "paused" : "resumed")", level: .info)
        }
    }

    private func line(_ id: JobID, _ what: String, level: LogLevel) -> EventText.Line? {
        guard let row = jobs[id] else { return nil }
        return EventText.Line(text: "job \(id.rawValue) \"\(row.info.title)\" (\(row.info.queue)): \(what)", level: level)
    }

    // MARK: - Reading

    /// A queue's jobs in the order the view lists them: running and retrying (by id), then
    /// waiting ones in the order they would start — ready jobs by priority, then the order
    /// they were added; then jobs whose dependencies are unmet — and last the finished ones,
    /// latest first.
    public func jobs(of queue: String) -> [QueuedJobRow] {
        let rows = jobs.values.filter { $0.info.queue == queue }
        let active = rows.filter(\.isActive).sorted { $0.info.id < $1.info.id }
        let waiting = rows.filter { $0.status == .waiting }.sorted { lhs, rhs in
            let (left, right) = (unmet(lhs).isEmpty, unmet(rhs).isEmpty)
            if left != right { return left }
            if lhs.info.priority != rhs.info.priority { return lhs.info.priority > rhs.info.priority }
            return lhs.info.id < rhs.info.id
        }
        let ended = rows.filter(\.status.isFinished).sorted { ($0.endedAt ?? .zero, $0.info.id) > ($1.endedAt ?? .zero, $1.info.id) }
        return active + waiting + ended
    }

    /// The dependencies of `row` that have not succeeded, as titles ("job 7" for one the board
    /// no longer keeps, which can only be one that succeeded long ago: a failed one ends its
    /// dependents at once).
    public func unmet(_ row: QueuedJobRow) -> [String] {
        row.info.dependencies.compactMap { id in
            guard let dependency = jobs[id] else { return nil }
            return dependency.status == .succeeded ? nil : dependency.info.title
        }
    }

    /// True while a job runs or waits for its next run: countdowns and progress move.
    public var hasActiveJobs: Bool { jobs.values.contains(where: \.isActive) }

    /// How many of a queue's jobs are running (retrying ones hold their slot too).
    public func activeCount(of queue: String) -> Int {
        jobs.values.filter { $0.info.queue == queue && $0.isActive }.count
    }
}
