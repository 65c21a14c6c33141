import DequeModule
import TaskFlow

/// What the dashboard knows of in-process job queues: each queue with its limit and paused
/// state, and each job it heard of, built from the queues' events alone, so every screen can
/// be reproduced from a list of events.
///
/// Finished jobs are kept up to ``finishedLimit`` (the oldest finished go first), so a queue
/// that runs for days keeps the board's memory bounded; unfinished jobs are always kept.
package struct QueueBoard: Sendable, Hashable {
    /// A queue as shown.
    package struct Queue: Sendable, Hashable {
        /// Its title, limit and kind.
        package let description: QueueDescription
        /// Whether it is paused, as its last event said.
        package internal(set) var isPaused: Bool
    }

    /// The queues, in the source's order.
    package private(set) var queues: [Queue]
    /// Every job kept, by id.
    package private(set) var jobs: [JobID: QueuedJobRow] = [:]
    /// Finished jobs kept, oldest first.
    private var finished: Deque<JobID> = []
    /// How many jobs ended in each final state, dropped ones included, by ``TaskFlow/JobStatus/name``.
    package private(set) var endedCounts: [String: Int] = [:]
    /// When each waiting job became ready to start (its dependencies all succeeded), as a
    /// sequence number: a queue starts ready jobs of one priority in that order.
    private var readiness: [JobID: Int] = [:]
    private var nextReadiness = 0
    /// Waiting jobs by the dependency they still wait for.
    private var dependents: [JobID: [JobID]] = [:]

    /// Durations of each job title's runs and jobs ended per second, dropped jobs included.
    package private(set) var statistics = JobStatistics()

    /// How many jobs the board heard end, dropped ones included.
    package var endedTotal: Int { endedCounts.values.reduce(0, +) }

    /// How many finished jobs are kept.
    package static let finishedLimit = 200

    /// The board of `queues`, no job heard of yet.
    package init(queues: [QueueDescription]) {
        self.queues = queues.map { Queue(description: $0, isPaused: $0.isPaused) }
    }

    /// Applies one event that happened at `time`.
    package mutating func apply(_ event: JobEvent, at time: Duration) {
        // Only the title is read before the change: a copy of `jobs` kept across it would copy
        // every job at each event.
        let title = event.jobID.flatMap { jobs[$0]?.info.title }
        statistics.record(event, at: time) { $0 == event.jobID ? title : nil }
        switch event {
        case .added(let info):
            let row = QueuedJobRow(info: info)
            jobs[info.id] = row
            let waitsFor = unmetIDs(row)
            if waitsFor.isEmpty { becameReady(info.id) }
            for dependency in waitsFor { dependents[dependency, default: []].append(info.id) }
        case .started(let id, let attempt):
            readiness[id] = nil
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

    private mutating func becameReady(_ id: JobID) {
        readiness[id] = nextReadiness
        nextReadiness += 1
    }

    private mutating func finish(_ id: JobID, _ status: JobStatus, at time: Duration) {
        readiness[id] = nil
        for dependent in dependents.removeValue(forKey: id) ?? [] where status == .succeeded {
            if let row = jobs[dependent], row.status == .waiting, unmetIDs(row).isEmpty { becameReady(dependent) }
        }
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
    package func line(for event: JobEvent) -> LogLine? {
        switch event {
        case .progress:
            return nil
        case .added(let info):
            let after = info.dependencies.isEmpty ? "" : ", after " + info.dependencies.map { titled($0) }.joined(separator: ", ")
            return line(info.id, "added, priority \(info.priority)\(after)", level: .info)
        case .started(let id, let attempt):
            return line(id, attempt > 1 ? "attempt \(attempt) started" : "started", level: .info)
        case .attemptFailed(let id, let attempt, let maxAttempts, let error, let delay):
            return line(id, "attempt \(attempt)/\(maxAttempts) failed: \(error); next in \(delay.delayText)", level: .warning)
        case .finished(let id, .succeeded):
            return line(id, "succeeded", level: .info)
        case .finished(let id, .failed(let message)):
            return line(id, "failed: \(message)", level: .error)
        case .finished(let id, _):
            return line(id, "cancelled", level: .warning)
        case .paused(let title, let paused):
            return LogLine(text: "queue \"\(title)\" \(paused ? "paused" : "resumed")", level: .info)
        }
    }

    /// "job 7 "Fetch"", or "job 7" for one the board does not keep.
    private func titled(_ id: JobID) -> String {
        jobs[id].map { "job \(id.rawValue) \"\($0.info.title)\"" } ?? "job \(id.rawValue)"
    }

    private func line(_ id: JobID, _ what: String, level: LogLevel) -> LogLine? {
        guard let row = jobs[id] else { return nil }
        return LogLine(text: "job \(id.rawValue) \"\(row.info.title)\" (\(row.info.queue)): \(what)", level: level)
    }

    // MARK: - Reading

    /// A queue's jobs in the order the view lists them: running and retrying (by id), then
    /// waiting ones in the order they would start — ready ones by priority, then in the order
    /// they became ready, as the queue starts them — then those still waiting for a dependency,
    /// and last the finished ones, latest first.
    package func jobs(of queue: String) -> [QueuedJobRow] {
        let rows = jobs.values.filter { $0.info.queue == queue }
        let active = rows.filter(\.isActive).sorted { $0.info.id < $1.info.id }
        let waiting = rows.filter { $0.status == .waiting }
        let ready = waiting.compactMap { row in readiness[row.info.id].map { (row, $0) } }.sorted { lhs, rhs in
            (lhs.0.info.priority.rawValue, -lhs.1) > (rhs.0.info.priority.rawValue, -rhs.1)
        }.map(\.0)
        let blocked = waiting.filter { readiness[$0.info.id] == nil }.sorted { $0.info.id < $1.info.id }
        let ended = rows.filter(\.status.isFinished).sorted { ($0.endedAt ?? .zero, $0.info.id) > ($1.endedAt ?? .zero, $1.info.id) }
        return active + ready + blocked + ended
    }

    /// The dependencies of `row` that have not succeeded, as titles (one the board no longer
    /// keeps can only have succeeded long ago: a failed one ends its dependents at once).
    package func unmet(_ row: QueuedJobRow) -> [String] {
        unmetIDs(row).compactMap { jobs[$0]?.info.title }
    }

    private func unmetIDs(_ row: QueuedJobRow) -> [JobID] {
        row.info.dependencies.filter { id in jobs[id].map { $0.status != .succeeded } ?? false }
    }

    /// True while a job runs or waits for its next run: countdowns and progress move.
    package var hasActiveJobs: Bool { jobs.values.contains(where: \.isActive) }

    /// How many of a queue's jobs wait to start: a count, without the sort ``jobs(of:)`` does.
    package func waitingCount(of queue: String) -> Int {
        jobs.values.filter { $0.info.queue == queue && $0.status == .waiting }.count
    }

    /// How many of a queue's jobs are running (retrying ones hold their slot too).
    package func activeCount(of queue: String) -> Int {
        jobs.values.filter { $0.info.queue == queue && $0.isActive }.count
    }
}
