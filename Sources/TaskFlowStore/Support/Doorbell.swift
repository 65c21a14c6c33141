import TaskFlow
import TaskFlowSupport

/// Wakes idle workers when there may be work: a submit, `conditionsChanged`, `stop`.
///
/// A worker takes a ``ticket()`` before it looks for work and waits with it; a ring in between
/// has moved the generation on, so the wait returns at once and no wake-up is lost between
/// "found nothing" and "went to sleep". Waits also end at a deadline on the store's clock, which
/// is how workers notice other processes' submissions and due retries.
final class Doorbell: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        /// Ends the wait at its deadline; cancelled when a ring ends it first.
        let timer: Task<Void, Never>
    }

    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state = Protected(State())
    /// What the deadlines are on.
    private let clock: any TimingClock

    init(clock: any TimingClock) {
        self.clock = clock
    }

    /// The generation now; pass it to ``wait(after:until:)``.
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
        for waiter in waiters {
            waiter.continuation.resume()
            // Its sleep ends now rather than at its deadline: a test clock sees only live waits.
            waiter.timer.cancel()
        }
    }

    /// Returns when the bell rang since `ticket` was taken, or at `deadline` on the store's clock
    /// (at once if it has passed).
    func wait(after ticket: UInt64, until deadline: ContinuousClock.Instant) async {
        await withCheckedContinuation { continuation in
            let rang = state.withLock { state in
                guard state.generation == ticket else { return true }
                state.nextWaiter &+= 1
                let id = state.nextWaiter
                // Armed only once the waiter is listed, so that however soon the deadline comes
                // (it may have passed), the timer finds the waiter to wake. The timer's task may
                // start before the lock is released; it then waits for the lock like any other.
                let timer = Task { [weak self, clock] in
                    guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                    self?.timeOut(id)
                }
                state.waiters[id] = Waiter(continuation: continuation, timer: timer)
                return false
            }
            if rang { continuation.resume() }
        }
    }

    /// Ends one wait at its deadline, if it is still waiting.
    private func timeOut(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }
}
