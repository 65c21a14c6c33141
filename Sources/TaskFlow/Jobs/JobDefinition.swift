/// What a ``Job`` is made of. Immutable: the builders (`retry`, `onValue`, `onError`) make a new
/// definition, so a job already handed to a queue or a task never changes.
@usableFromInline
final class JobDefinition<Value: Sendable>: Sendable {
    let title: String
    let retryPolicy: RetryPolicy
    @usableFromInline let body: @Sendable (JobContext) async throws -> Value
    let valueHandlers: [@Sendable (Value) -> Void]
    let errorHandlers: [@Sendable (any Error) -> Void]
    /// True when a run is one call of the body: one attempt, no handler. Worked out once here,
    /// so a plain ``Job/run()`` tests one stored flag.
    @usableFromInline let isPlain: Bool

    init(
        title: String, retryPolicy: RetryPolicy, body: @escaping @Sendable (JobContext) async throws -> Value,
        valueHandlers: [@Sendable (Value) -> Void], errorHandlers: [@Sendable (any Error) -> Void]
    ) {
        self.title = title
        self.retryPolicy = retryPolicy
        self.body = body
        self.valueHandlers = valueHandlers
        self.errorHandlers = errorHandlers
        isPlain = retryPolicy.maxAttempts == 1 && valueHandlers.isEmpty && errorHandlers.isEmpty
    }

    /// A copy with some parts replaced.
    func with(
        retryPolicy: RetryPolicy? = nil, valueHandlers: [@Sendable (Value) -> Void]? = nil,
        errorHandlers: [@Sendable (any Error) -> Void]? = nil
    ) -> JobDefinition {
        JobDefinition(
            title: title, retryPolicy: retryPolicy ?? self.retryPolicy, body: body,
            valueHandlers: valueHandlers ?? self.valueHandlers, errorHandlers: errorHandlers ?? self.errorHandlers)
    }
}
