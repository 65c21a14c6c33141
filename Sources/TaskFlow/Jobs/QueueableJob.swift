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
        try await perform(observer: observer, clock: observer.clock)
    }
}
