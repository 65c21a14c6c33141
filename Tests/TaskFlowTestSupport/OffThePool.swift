import Foundation

/// Runs `body` on a thread of its own and returns its result: for the blocking calls of tests
/// (waiting for a child process, reading its output to the end).
///
/// Tests run side by side on the cooperative pool, which has one thread per core (two on CI).
/// A blocking wait there holds one of them: two such waits stall every other test for as long
/// as they last, and tests that wait on a deadline then fail for no fault of their own.
public func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
