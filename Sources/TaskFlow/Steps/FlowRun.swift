/// What one flow's steps share while its body runs: the flow's record, its state, and whether
/// steps may still start.
final class FlowRun<State: Sendable>: Sendable {
    let record: FlowRecord
    let store: StateStore<State>
    /// The copy a read flow sees, taken when it got the lock; nil for write flows.
    let snapshot: State?
    private let steps = Protected(Steps())

    /// Whether steps may start, and how many are running. A step the body let escape (started
    /// from a task the body did not await) may still be running when the body ends: the flow
    /// waits for it (``close()``), so that its revert is registered before the flow completes
    /// or rolls back, and it never runs after the flow let go of the lock.
    private struct Steps {
        var open = true
        var running = 0
        var drained: CheckedContinuation<Void, Never>?
    }

    init(record: FlowRecord, store: StateStore<State>) {
        self.record = record
        self.store = store
        snapshot = record.info.access == .read ? store.value : nil
    }

    var state: State { snapshot ?? store.value }

    var rollback: Rollback { Rollback(record: record) }

    /// Counts a step as running, if it may start: while the body runs; after it, only a step
    /// `nested` inside one still running (an escaped step's own sub-steps). False means refused:
    /// the flow ended, and a step started now could never be reverted.
    func enter(nested: Bool) -> Bool {
        steps.withLock { steps in
            guard steps.open || (nested && steps.running > 0) else { return false }
            steps.running += 1
            return true
        }
    }

    /// A step counted by ``enter(nested:)`` ended (its revert, if any, is registered).
    func leave() {
        let drained = steps.withLock { steps -> CheckedContinuation<Void, Never>? in
            steps.running -= 1
            guard !steps.open, steps.running == 0 else { return nil }
            defer { steps.drained = nil }
            return steps.drained
        }
        drained?.resume()
    }

    /// The body ended: no step may start from now on; returns once the steps still running
    /// (started by tasks the body let escape) have ended.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = steps.withLock { steps -> Bool in
                steps.open = false
                guard steps.running > 0 else { return false }
                steps.drained = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
    }
}
