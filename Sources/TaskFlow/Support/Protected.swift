/// A value that only one thread at a time may touch: the engine's one way to share mutable state.
/// A copyable handle to one ``InlineProtected`` value (which documents the lock primitives),
/// for state shared by several owners.
struct Protected<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: InlineProtected<Value>
        init(_ value: Value) { self.value = InlineProtected(value) }
    }

    private let box: Box

    init(_ value: Value) { box = Box(value) }

    /// Runs `body` with exclusive access to the value. `body` must not block or call back into
    /// code that takes the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.value.withLock(body)
    }
}
