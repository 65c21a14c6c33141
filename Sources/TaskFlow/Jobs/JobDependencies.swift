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
    /// chain of a million jobs needs no deeper stack than one at the end. A dependent that becomes
    /// ready may be taken by `handOff`.
    static func deliver(_ notices: [DependencyNotice], handOff: JobHandOff? = nil) {
        var work = notices
        while let notice = work.popLast() {
            work += notice.dependent.dependencyEnded(notice.outcome, handOff: handOff)
        }
    }
}

/// A dependency's outcome on its way to one dependent.
struct DependencyNotice: Sendable {
    let dependent: JobRecord
    let outcome: DependencyOutcome
}

/// A job's typed work as the queue's untyped bookkeeping (``JobRecord``) runs it: ``Job``
/// conforms, returning its value as `any Sendable`.
protocol QueueableJob: Sendable {
    var title: String { get }
    /// The most runs its retry policy allows.
    var maxAttempts: Int { get }
    /// One run with retries and handlers, reporting to `observer`.
    func performErased(observer: any JobObserver) async throws -> any Sendable
    /// Calls the error handlers of a job that ends without running.
    func report(_ error: any Error)
}

extension Job: QueueableJob {
    var maxAttempts: Int { retryPolicy.maxAttempts }

    func performErased(observer: any JobObserver) async throws -> any Sendable {
        try await perform(observer: observer)
    }
}
