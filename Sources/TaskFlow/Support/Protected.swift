import NIOConcurrencyHelpers

/// A value that only one thread at a time may touch: the engine's one way to share mutable state.
///
/// Why not `Synchronization.Mutex`: on Linux its futex-based lock is invisible to
/// ThreadSanitizer, which then reports every access inside `withLock` as a race (checked with a
/// four-thread counter: correct total, a TSan report per run). Those false reports would drown a
/// real race, and TaskFlow's concurrency is tested under `--sanitize=thread`. NIO's
/// `NIOLockedValueBox` is a pthread mutex, which TSan understands, at the same uncontended cost.
struct Protected<Value: Sendable>: Sendable {
    private let box: NIOLockedValueBox<Value>

    init(_ value: Value) { box = NIOLockedValueBox(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLockedValue(body)
    }
}
