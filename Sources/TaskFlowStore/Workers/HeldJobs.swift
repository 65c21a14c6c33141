import TaskFlowSupport

/// The jobs this store's workers hold: claimed, and not yet committed or handed back. Only
/// their leases are renewed. A claim the database committed but whose answer never arrived (the
/// connection dropped on the way) is held by no worker, so its lease runs out and the job comes
/// back, instead of being renewed forever by an owner that does not know it has it.
///
/// It is also what keeps one job's events in order across workers. A worker releases a job
/// only after its outcome committed *and* its event (`retryScheduled`, say) went out, but the
/// commit makes the job claimable at once: another worker can claim it in between. That claim
/// waits in ``hold(_:)`` until the first worker released it, so its `started` follows the
/// `retryScheduled` it answers (and the job stays held, its lease renewed, all along: without
/// the wait, the first worker's release dropped the second one's hold).
///
/// A pthread lock (NIO's), like the store's other shared state: ThreadSanitizer cannot see
/// `Synchronization.Mutex`'s futex and reports every access inside it as a race.
package final class HeldJobs: Sendable {
    private struct State {
        var ids = Set<StoredJobID>()
        /// Claims waiting for a job another worker still holds, by that job.
        var waiting: [StoredJobID: [CheckedContinuation<Bool, Never>]] = [:]
    }

    private let state = Protected(State())

    /// A worker claimed these: holds them all, once no other worker still holds any of them.
    /// A worker holds nothing while it claims, and every holder releases what it holds (after a
    /// commit, a hand-back or giving up), so the wait always ends.
    package func hold(_ jobs: [ClaimedJob]) async {
        let wanted = jobs.map(\.id)
        while await !tryHold(wanted) {}
    }

    /// Holds `wanted` and returns true; or, if another worker holds one of them, returns false
    /// once that one was released.
    private func tryHold(_ wanted: [StoredJobID]) async -> Bool {
        await withCheckedContinuation { continuation in
            let held = state.withLock { state in
                if let busy = wanted.first(where: state.ids.contains) {
                    state.waiting[busy, default: []].append(continuation)
                    return false
                }
                state.ids.formUnion(wanted)
                return true
            }
            if held { continuation.resume(returning: true) }
        }
    }

    /// A worker committed these, or handed them back, or gave up on them: claims waiting for them
    /// go on.
    package func release(_ jobs: [ClaimedJob]) {
        let waking = state.withLock { state in
            state.ids.subtract(jobs.map(\.id))
            return jobs.flatMap { state.waiting.removeValue(forKey: $0.id) ?? [] }
        }
        for continuation in waking { continuation.resume(returning: false) }
    }

    /// The jobs held now, in id order.
    package var all: [StoredJobID] { state.withLock { $0.ids.sorted() } }

    /// How many claims wait for a job another worker holds.
    package var waitingClaims: Int { state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } } }

    package init() {}
}
