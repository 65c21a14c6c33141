import TaskFlowSupport

/// Runs `operation` and returns what it returns, or throws ``PostgresStoreError/server(server:message:)``
/// once `limit` has passed without an answer, whether or not the operation ends.
///
/// Why: after the server restarts, a request postgres-nio took just before it went down may
/// never be answered nor fail (seen in the process test: a worker waited for ever, and with it
/// the store's `stop()`). The store treats a late answer like any database error — a claim
/// finds nothing, an outcome is committed again (fenced, so at most once) — so giving up on
/// it is safe. The abandoned request is cancelled and left to end on its own; it is not
/// awaited, so it cannot hold up its caller (a task group would wait for it).
func withDeadline<Value: Sendable>(
    _ limit: Duration, server: String, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let race = DeadlineRace(continuation)
        race.start(
            Task { await race.settle(Result { try await operation() }) },
            Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                race.settle(.failure(PostgresStoreError.server(server: server, message: "no answer within \(limit)")))
            })
    }
}

/// The two contenders of ``withDeadline(_:server:_:)``: the first to settle resumes the caller
/// and cancels both tasks.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private let continuation: CheckedContinuation<Value, any Error>
    private let state = Protected<(settled: Bool, tasks: [Task<Void, Never>])>((false, []))

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = continuation
    }

    /// Keeps the tasks to cancel; cancels them at once if the race already ended.
    func start(_ work: Task<Void, Never>, _ timer: Task<Void, Never>) {
        let ended = state.withLock { state in
            state.tasks = [work, timer]
            return state.settled
        }
        if ended { work.cancel(); timer.cancel() }
    }

    func settle(_ result: Result<Value, any Error>) {
        let tasks: [Task<Void, Never>]? = state.withLock { state in
            guard !state.settled else { return nil }
            state.settled = true
            return state.tasks
        }
        guard let tasks else { return }
        continuation.resume(with: result)
        for task in tasks { task.cancel() }
    }
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws.
    fileprivate init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
