#if DEBUG
import NIOConcurrencyHelpers
#else
import Synchronization
#endif

/// A value that only one thread at a time may touch: the package's one lock. It is stored in
/// place inside the object that owns it (every owner is a class or an actor), so it costs no
/// allocation of its own and, not being copyable, can only live in one place.
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
///
/// Public (in a module that is no product, so still the package's own) and inlinable, so that a
/// lock taken in another module is specialized and inlined there: the compiler does not inline
/// `package` declarations across modules, and an unspecialized call per lock cost the engine's
/// no-observer step ~35 % in the release benchmark.
public struct Protected<Value: Sendable>: ~Copyable, Sendable {
    #if DEBUG
    @usableFromInline let box: NIOLockedValueBox<Value>

    /// A lock around `value`. Consuming: the value moves into the lock, where a borrowed one was
    /// copied in and the original destroyed (300 instructions of a flow's registration).
    @inlinable public init(_ value: consuming Value) { box = NIOLockedValueBox(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.withLockedValue(body)
    }
    #else
    @usableFromInline let mutex: Mutex<Value>

    /// A lock around `value`. Consuming: the value moves into the lock, where a borrowed one was
    /// copied in and the original destroyed (300 instructions of a flow's registration).
    @inlinable public init(_ value: consuming Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
    #endif
}
