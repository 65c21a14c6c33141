import TaskFlowSupport

/// Wakes idle workers when there may be work: a submit, `conditionsChanged`, `stop`.
///
/// A worker takes a ``ticket()`` before it looks for work and waits with it; a ring in between
/// has moved the generation on, so the wait returns at once and no wake-up is lost between
/// "found nothing" and "went to sleep". Waits also end after a timeout, which is how workers
/// notice other processes' submissions and due retries.
final class Doorbell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Protected(State())

    /// The generation now; pass it to ``wait(after:timeout:)``.
    func ticket() -> UInt64 {
        state.withLock { $0.generation }
    }

    /// Wakes every waiter, and every later wait whose ticket predates this ring.
    func ring() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the bell rang since `ticket` was taken, or after `timeout`.
    func wait(after ticket: UInt64, timeout: Duration) async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.resume(id)
        }
        await withCheckedContinuation { continuation in
            let rang = state.withLock { state in
                guard state.generation == ticket else { return true }
                state.waiters[id] = continuation
                return false
            }
            if rang { continuation.resume() }
        }
        timer.cancel()
    }

    /// Ends one wait (its timeout), if it is still waiting.
    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
