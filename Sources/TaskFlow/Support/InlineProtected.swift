#if DEBUG
import NIOConcurrencyHelpers
#else
import Synchronization
#endif

/// ``Protected``, stored in place inside the object that owns it instead of in a box of its own:
/// for the engine's per-flow and per-step objects (a flow's record, a revert log), where a box
/// would cost an allocation and, being a generic class, a runtime metadata lookup each time one
/// is freed. Not copyable, so it can only live in one place. Same lock primitives, chosen the same
/// way (see ``Protected``).
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
