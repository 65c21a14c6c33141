#if DEBUG
import NIOConcurrencyHelpers
#else
import Synchronization
#endif

/// A value that only one thread at a time may touch, stored in place inside the object that
/// owns it: for the engine's per-flow and per-step objects (a flow's record, a revert log), where
/// a box would cost an allocation and, being a generic class, a runtime metadata lookup each time
/// one is freed. Not copyable, so it can only live in one place; ``Protected`` shares one.
///
/// Two lock primitives behind one API, chosen by build configuration:
/// - **Debug** (what `swift test`, and `swift test --sanitize=thread`, build): NIO's
///   `NIOLockedValueBox`, a pthread mutex that ThreadSanitizer understands. On Linux
///   `Synchronization.Mutex` is a futex TSan cannot see, so it reports every access inside
///   `withLock` as a race (checked with a four-thread counter: correct total, a TSan report per
///   run) and those false reports would drown a real one.
/// - **Release**: `Synchronization.Mutex`, stored inline, which spins briefly before sleeping;
///   under contention it kept both cores busy where the pthread mutex put threads to sleep
///   (40–70 % more flows/s through the lock in the benchmark).
/// Both are plain mutual exclusion with the same semantics, so the code TSan checks is the code
/// that ships; only the primitive differs.
struct InlineProtected<Value: Sendable>: ~Copyable, Sendable {
    #if DEBUG
    private let box: NIOLockedValueBox<Value>

    init(_ value: Value) { box = NIOLockedValueBox(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLockedValue(body)
    }
    #else
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
    #endif
}
