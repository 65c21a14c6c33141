/// A job on a queue, seen without its value type: what the queue and the jobs that depend on it
/// need. Implemented by ``JobRecord``.
protocol ScheduledJob: AnyObject, Sendable {
    var id: JobID { get }
    var title: String { get }
    var priority: JobPriority { get }
    var status: JobStatus { get }
    /// True once the job ended; readable without its lock, so the queue can skip ended jobs
    /// while it holds its own.
    var hasEnded: Bool { get }

    /// Starts the body in a new task, unless the job already ended (cancelled after the queue
    /// picked it); returns whether it started.
    func launch() -> Bool
    /// Cancels the job: a waiting job ends at once without running, a running one sees
    /// `isCancelled`.
    func cancel()
    /// Registers `dependent` to hear how this job ends; if it already ended, returns that
    /// instead (and registers nothing).
    func addDependent(_ dependent: any ScheduledJob) -> DependencyOutcome?
    /// One of this job's dependencies ended. If that ends this job too (the dependency failed),
    /// returns the notices for this job's own dependents, for ``DependencyOutcome/deliver(_:)``.
    func dependencyEnded(_ outcome: DependencyOutcome) -> [DependencyNotice]
}

/// How a dependency ended, as its dependents see it.
enum DependencyOutcome: Sendable {
    /// It succeeded: one unmet dependency less.
    case succeeded
    /// It failed or was cancelled: the dependent fails without running, naming it.
    case failed(dependency: String, cancelled: Bool)

    /// The outcome of a job titled `title` whose run ended with `result`.
    init<Value>(title: String, _ result: Result<Value, any Error>) {
        switch result {
        case .success: self = .succeeded
        case .failure(let error): self = .failed(dependency: title, cancelled: error is CancellationError)
        }
    }

    /// Tells each dependent how its dependency ended, and the dependents of those that end as a
    /// result, and so on: with a work list rather than recursion, so a failure at the head of a
    /// chain of a million jobs needs no deeper stack than one at the end.
    static func deliver(_ notices: [DependencyNotice]) {
        var work = notices
        while let notice = work.popLast() {
            work += notice.dependent.dependencyEnded(notice.outcome)
        }
    }
}

/// A dependency's outcome on its way to one dependent.
struct DependencyNotice: Sendable {
    let dependent: any ScheduledJob
    let outcome: DependencyOutcome
}

/// A job's typed work as the queue's untyped bookkeeping (``JobRecord``) runs it: ``Job``
/// conforms, returning its value as `any Sendable`.
protocol QueueableJob: Sendable {
    var title: String { get }
    /// One run with retries and handlers, reporting to `observer`.
    func performErased(observer: any JobObserver) async throws -> any Sendable
    /// Calls the error handlers of a job that ends without running.
    func report(_ error: any Error)
}

extension Job: QueueableJob {
    func performErased(observer: any JobObserver) async throws -> any Sendable {
        try await perform(observer: observer)
    }
}
