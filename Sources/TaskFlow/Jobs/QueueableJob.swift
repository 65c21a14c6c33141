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
        // A plain job (one attempt, no handler) calls its body from this frame: through
        // `perform`, one frame more on every queued job's task made its frames overflow a slab
        // of the task's allocator, a heap allocation per job.
        guard definition.isPlain else { return try await perform(observer: observer, clock: observer.clock) }
        return try await attempt(1, observer: observer)
    }
}
