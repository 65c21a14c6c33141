#if DEBUG
import NIOConcurrencyHelpers
#else
import Synchronization
#endif

/// A value that only one thread at a time may touch: the engine's one way to share mutable state.
///
/// Two lock primitives behind one API, chosen by build configuration:
/// - **Debug** (what `swift test`, and `swift test --sanitize=thread`, build): NIO's
///   `NIOLockedValueBox`, a pthread mutex that ThreadSanitizer understands. On Linux
///   `Synchronization.Mutex` is a futex TSan cannot see, so it reports every access inside
///   `withLock` as a race (checked with a four-thread counter: correct total, a TSan report per
///   run) and those false reports would drown a real one.
/// - **Release**: `Synchronization.Mutex`, which spins briefly before sleeping; under contention
///   it kept both cores busy where the pthread mutex put threads to sleep (40–70 % more flows/s
///   through the lock in the benchmark).
/// Both are plain mutual exclusion with the same semantics, so the code TSan checks is the code
/// that ships; only the primitive differs.
struct Protected<Value: Sendable>: Sendable {
    #if DEBUG
    private let box: NIOLockedValueBox<Value>

    init(_ value: Value) { box = NIOLockedValueBox(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLockedValue(body)
    }
    #else
    private final class Box: Sendable {
        let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
    }

    private let box: Box

    init(_ value: Value) { box = Box(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.mutex.withLock { value in try body(&value) }
    }
    #endif
}
