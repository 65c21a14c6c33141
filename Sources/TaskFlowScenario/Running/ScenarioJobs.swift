import TaskFlow
import TaskFlowSupport

/// A scenario's queues and the jobs it adds to them: each job at its `start` (never before
/// the jobs it waits for), with handles kept by title so that `after` and a retry find them.
///
/// The queues exist from the start, so an observer can subscribe to ``queues``' events before
/// the first job is added. A retry adds the job again, with the jobs it skipped: those that
/// waited for it, directly or not, and did not succeed. A run started again on the same runner
/// adds the jobs again to the same queues, and `fail_times` goes on counting attempts from where
/// the first run left them.
package final class ScenarioJobs: Sendable {
    /// The queues, in file order.
    package let queues: [JobQueue]
    private let specs: [JobSpec]
    /// Each job's queue, by job index.
    private let queueOfJob: [Int]
    /// Which queues are blocking-work queues, by queue index.
    private let isBlocking: [Bool]
    /// Job indices in adding order, with the time each is added (see ``addingSchedule``).
    private let schedule: [(job: Int, at: Duration)]
    /// For each job, the jobs that wait for it.
    private let dependents: [[Int]]
    private let graph: JobGraph
    private let player: JobPlayer
    /// Each job's attempts so far, across its runs.
    private let attempts: [AttemptCounter]
    private let pacer: Pacer
    private let added = Protected(Added())

    private struct Added {
        /// The latest handle of each job, by index; nil until it is added.
        var handles: [JobHandle<Void>?] = []
        /// How many runs were added, retries included.
        var count = 0
        /// Which job each handle ever given out belongs to.
        var jobOfID: [JobID: Int] = [:]
    }

    init(scenario: Scenario, pacer: Pacer, dice: FailureDice) {
        specs = scenario.jobs
        let queues = scenario.queues.map { spec in
            spec.isBlocking
                ? JobQueue.blocking(title: spec.title, threads: spec.maxConcurrent)
                : JobQueue(title: spec.title, maxConcurrent: spec.maxConcurrent)
        }
        self.queues = queues
        isBlocking = scenario.queues.map(\.isBlocking)
        let queueIndex = Dictionary(scenario.queues.enumerated().map { ($1.title, $0) }, uniquingKeysWith: { first, _ in first })
        // Loaded files name existing queues; a scenario built in code that does not gets the
        // first, and one without any queue runs no job at all.
        queueOfJob = scenario.jobs.map { queueIndex[$0.queue] ?? 0 }
        graph = JobGraph(scenario.jobs)
        var dependents = [[Int]](repeating: [], count: specs.count)
        for (job, waitsFor) in graph.dependencies.enumerated() {
            for dependency in waitsFor { dependents[dependency].append(job) }
        }
        self.dependents = dependents
        schedule = queues.isEmpty ? [] : Self.addingSchedule(scenario.jobs, graph: graph)
        self.pacer = pacer
        attempts = scenario.jobs.map { _ in AttemptCounter() }
        player = JobPlayer(pacer: pacer, dice: dice)
        added.withLock { $0.handles = Array(repeating: nil, count: scenario.jobs.count) }
    }

    /// The order jobs are added in: by start time, where a job's start is never before that of
    /// a job it waits for, and each job after the jobs it waits for. A scenario built in code
    /// with a cycle adds nothing (a loaded file cannot have one).
    static func addingSchedule(_ jobs: [JobSpec], graph: JobGraph) -> [(job: Int, at: Duration)] {
        guard let order = graph.topologicalOrder else { return [] }
        var start = jobs.map(\.start)
        for job in order {
            start[job] = graph.dependencies[job].reduce(start[job]) { max($0, start[$1]) }
        }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return order.map { ($0, start[$0]) }.sorted { (start[$0.job], position[$0.job] ?? 0) < (start[$1.job], position[$1.job] ?? 0) }
    }

    /// Adds every job at its time; returns early when the calling task is cancelled.
    func addAll() async {
        var now = Duration.zero
        for (job, at) in schedule {
            guard !Task.isCancelled, (try? await pacer.wait(at - now)) != nil else { return }
            now = at
            add(job)
        }
    }

    private func add(_ job: Int) {
        added.withLock { state in _ = add(job, to: &state) }
    }

    /// Adds a run of `job` after its dependencies' latest runs. Called under the lock, so that
    /// the handles and the runs added stay in step when a retry and the schedule add at once.
    private func add(_ job: Int, to state: inout Added) -> JobHandle<Void> {
        let spec = specs[job]
        let queue = queueOfJob[job]
        let handle = queues[queue].add(
            player.job(spec, index: job, blocking: isBlocking[queue], attempts: attempts[job]), priority: spec.priority,
            after: graph.dependencies[job].compactMap { state.handles[$0] })
        state.handles[job] = handle
        state.jobOfID[handle.id] = job
        state.count += 1
        return handle
    }

    /// How many runs were added to the queues so far, retries included.
    package var addedCount: Int { added.withLock { $0.count } }

    /// The latest handle of the job titled `title`, once it was added.
    package func handle(titled title: String) -> JobHandle<Void>? {
        guard let job = specs.firstIndex(where: { $0.title == title }) else { return nil }
        return added.withLock { $0.handles[job] }
    }

    /// Every job's latest handle, in file order, for those added so far.
    package var handles: [JobHandle<Void>] { added.withLock { $0.handles.compactMap { $0 } } }

    /// Cancels the job with this id, if it is one of this scenario's.
    package func cancel(_ id: JobID) {
        latestHandle(of: id)?.cancel()
    }

    /// Adds the job with this id again now, if it failed or was cancelled and is its job's
    /// latest run, followed by the jobs it skipped (every job that waits for it, directly or
    /// not, and did not succeed), each after its dependencies' latest runs. Returns the new
    /// runs' ids, the retried job's first; throws ``JobRetryRefusal`` otherwise.
    package func retry(_ id: JobID) throws(JobRetryRefusal) -> [JobID] {
        let job = added.withLock { $0.jobOfID[id] }
        guard let job else { throw .unknown(id) }
        let outcome: Result<[JobID], JobRetryRefusal> = added.withLock { state in
            guard let latest = state.handles[job], latest.id == id else { return .failure(.superseded(specs[job].title)) }
            guard Self.canRetry(latest.status) else { return .failure(.notFailed(specs[job].title, latest.status)) }
            return .success(downstream(of: job, in: state).map { add($0, to: &state).id })
        }
        return try outcome.get()
    }

    /// `job` and every job downstream of it that failed or was cancelled, in adding order.
    private func downstream(of job: Int, in state: Added) -> [Int] {
        var chosen: Set<Int> = [job]
        var work = [job]
        while let next = work.popLast() {
            for dependent in dependents[next] where !chosen.contains(dependent) {
                guard let handle = state.handles[dependent], Self.canRetry(handle.status) else { continue }
                chosen.insert(dependent)
                work.append(dependent)
            }
        }
        return schedule.map(\.job).filter(chosen.contains)
    }

    private static func canRetry(_ status: JobStatus) -> Bool {
        switch status {
        case .failed, .cancelled: true
        default: false
        }
    }

    private func latestHandle(of id: JobID) -> JobHandle<Void>? {
        added.withLock { state in state.jobOfID[id].flatMap { state.handles[$0] }.flatMap { $0.id == id ? $0 : nil } }
    }

    /// Cancels every job of every queue, latest first across the queues, so that jobs waiting
    /// for others end `cancelled` rather than failed by a dependency cancelled just before them.
    package func cancelAll() {
        for handle in handles.sorted(by: { $0.id > $1.id }) { handle.cancel() }
    }

    /// Waits until every job added so far has ended, the latest run of each.
    package func finished() async {
        for handle in handles { _ = try? await handle.value }
    }
}

/// Why a scenario job was not retried.
package enum JobRetryRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id is not one of the scenario's jobs.
    case unknown(JobID)
    /// The job was retried already: only its latest run can be retried.
    case superseded(String)
    /// Only a failed or cancelled job can be retried.
    case notFailed(String, JobStatus)

    /// One line for the status bar.
    package var description: String {
        switch self {
        case .unknown(let id): "job \(id) is not one of the scenario's"
        case .superseded(let title): "'\(title)' was retried already: retry its latest run"
        case .notFailed(let title, let status): "'\(title)' is \(status): only a failed or cancelled job can be retried"
        }
    }
}
