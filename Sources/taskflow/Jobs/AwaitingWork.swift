import Dispatch
import TaskFlowSupport

/// Runs async work to its end from the synchronous command line and returns (or throws) what it
/// did. The calling thread waits on a semaphore; the work runs on the cooperative pool, which
/// that thread is not part of, so the wait cannot starve it.
func awaiting<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = Protected<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result = await Result(awaiting: work)
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    // The task stored a result before it signalled, so there is one: the force unwrap is sound.
    return try outcome.withLock { $0! }.get()
}

/// Runs async work from the synchronous main thread, waiting for it at most `limit`: past that,
/// the program goes on (and ends) without it.
func awaiting(atMost limit: Duration, _ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    _ = done.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds * 1000)))
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws: `Result(catching:)` for async code.
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
