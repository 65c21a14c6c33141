import Synchronization
import TaskFlowSupport

/// What one flow's steps share: its state's store, the reverts of its top-level steps, and
/// whether steps may still start.
///
/// Stored in place in the flow's record (``FlowRecord/run``), made with it: one object less
/// per flow than a run of its own, made when the flow got the lock (an allocation, and its
/// release, on every flow's path). A read flow's snapshot is the record's
/// (``FlowRecord/stateSnapshot``).
///
/// Not generic over the state: generic code called from other modules looks up the type
/// metadata of each type built from its parameter at run time, and a `FlowRun<State>` holding a
/// `State?` cost three such look-ups per flow (about 1,100 instructions of an empty write
/// flow's 22 k). The typed views are ``StepScope``'s, which knows `State`.
struct FlowRun: ~Copyable, Sendable {
    /// The manager's state.
    let store: StateStore
    /// The reverts of the flow's top-level steps: kept here rather than in a log of their own,
    /// one object less per flow.
    let reverts = RevertList()
    /// Whether steps may start, and how many are running, in one atomic word: the running count
    /// times two, plus 1 once the body ended. A step the body let escape (started from a task
    /// the body did not await) may still be running when the body ends: the flow waits for it
    /// (``close()``), so that its revert is registered before the flow completes or rolls back,
    /// and it never runs after the flow let go of the lock. One atomic, not a lock: every step
    /// passes here twice.
    private let steps = Atomic<Int>(0)
    /// The body's end, waiting for the last escaped step (rare: only then is a lock taken).
    private let drained = Protected<CheckedContinuation<Void, Never>?>(nil)

    init(store: StateStore) {
        self.store = store
    }

    /// Counts a step as running, if it may start: while the body runs; after it, only a step
    /// `nested` inside one still running (an escaped step's own sub-steps). False means refused:
    /// the flow ended, and a step started now could never be reverted.
    func enter(nested: Bool) -> Bool {
        var word = steps.load(ordering: .acquiring)
        while true {
            let ended = word & 1 == 1, running = word >> 1
            if ended, !(nested && running > 0) { return false }
            let (exchanged, original) = steps.compareExchange(
                expected: word, desired: word + 2, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if exchanged { return true }
            word = original
        }
    }

    /// A step counted by ``enter(nested:)`` ended (its revert, if any, is registered).
    func leave() {
        // 1: the body ended and this was the last step running.
        if steps.subtract(2, ordering: .acquiringAndReleasing).newValue == 1 { resumeClose() }
    }

    /// The body ended: no step may start from now on; returns once the steps still running
    /// (started by tasks the body let escape) have ended. Inlined, so that the common case (no
    /// step escaped) takes no frame of its own on the flow's task.
    @inline(__always)
    func close() async {
        guard steps.bitwiseOr(1, ordering: .acquiringAndReleasing).newValue != 1 else { return }
        await waitForEscapedSteps()
    }

    /// Returns once the last step the body let escape has ended.
    private func waitForEscapedSteps() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            drained.withLock { $0 = continuation }
            // The last step may have ended before the continuation was stored.
            if steps.load(ordering: .acquiring) == 1 { resumeClose() }
        }
    }

    /// Resumes ``close()`` once, whichever of the last step and the body gets here second.
    private func resumeClose() {
        drained.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume()
    }
}
