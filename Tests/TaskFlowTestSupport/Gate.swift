import TaskFlowSupport

/// A one-shot latch: steps `await gate.wait()` until the test calls `open()`. Lets tests hold a
/// step mid-way deterministically instead of sleeping and hoping.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Protected(State())

    /// A closed gate.
    public init() {}

    /// Lets every waiter, present and future, through.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether ``open()`` was called: for loops that must also notice the gate without waiting.
    public var isOpen: Bool { state.withLock(\.isOpen) }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
