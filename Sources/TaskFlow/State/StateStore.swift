import Synchronization
import TaskFlowSupport

/// The manager's state value, with a version that tells whether anyone changed it since.
///
/// Every `update` gets a fresh, never reused version, and its revert restores the value from
/// before it. Updates of one flow may be reverted in any order: children of a group update
/// concurrently and register their reverts as they complete, which need not be the order the
/// updates were applied. A revert whose update is not the latest change waits (it is kept
/// as pending) until the reverts of the updates made after it have run, then applies; so once
/// a flow's rollback has run every revert, the state is as it was before the flow, whatever the
/// order. Changes by other flows never come in between: a write flow holds the lock through
/// its rollback, and an undo is refused up front if later flows changed the state.
///
/// Not generic: each version of the value is an immutable `StateSnapshot<State>`, and the
/// methods that need `State` are told it. Sound because a manager makes its store with its own
/// state and every caller passes the manager's `State` (``StepScope``, ``TaskFlowManager``).
/// Why: a generic store's lock and its types (`Protected<Versioned<State>>`, the pending
/// restores) looked their metadata up at each use, in code called from other modules: eight
/// look-ups of about 325 instructions in every update step, 2.6 k of its 8.4 k. A snapshot per
/// version costs one allocation instead, and is what read flows see, shared and never copied.
final class StateStore: Sendable {
    /// A `StateSnapshot<State>`, its type erased: one reference, copied with a retain.
    typealias Snapshot = any AnyObject & Sendable

    private struct Versioned {
        var current: Snapshot
        var version = 0
        var lastIssued = 0
        /// Reverts that came while a later update was still in place, by the version their own
        /// update produced: each applies once the state is back at that version.
        var pending: [Int: PendingRestore] = [:]
    }

    private struct PendingRestore {
        let snapshot: Snapshot
        let version: Int
        let step: StepInfo
    }

    private let storage: Protected<Versioned>
    /// ``Versioned/version`` and whether ``Versioned/pending`` holds any, kept beside the storage
    /// (written under its lock) so that the questions every write flow asks — its undo log's
    /// version, whether a restore is left over — are one atomic load.
    private let currentVersion = Atomic<Int>(0)
    private let anyPending = Atomic<Bool>(false)

    init<State: Sendable>(_ value: State) { storage = Protected(Versioned(current: StateSnapshot(value))) }

    /// The current value; `State` is the manager's.
    @inline(__always)
    func value<State: Sendable>(as _: State.Type) -> State {
        unsafeDowncast(snapshot(), to: StateSnapshot<State>.self).value
    }

    /// The current value as an immutable `StateSnapshot<State>`: a read flow's run holds it,
    /// shared with every read flow that gets the lock while the state stays at this version.
    func snapshot() -> Snapshot { storage.withLock { $0.current } }

    /// Identifies the state's current value: it changes with every update and every restore.
    var version: Int { currentVersion.load(ordering: .acquiring) }

    /// Applies `change` (the work of `step`) to the value, whose type is the manager's `State`,
    /// and returns its revert, which restores the previous value now or, if later updates are
    /// still in place, as soon as they are reverted.
    ///
    /// `change` runs outside the lock, on a copy, so it may read the state itself. The copy is
    /// committed only if nobody changed the state meanwhile (two children of one group updating
    /// at once); otherwise `change` runs again on the newer value.
    @inline(__always)
    func update<State: Sendable>(
        _ step: StepInfo, as _: State.Type, _ change: (inout State) throws -> Void
    ) throws -> @Sendable () -> Void {
        while true {
            let (current, version) = storage.withLock { ($0.current, $0.version) }
            let old = unsafeDowncast(current, to: StateSnapshot<State>.self)
            var new = old.value
            try change(&new)
            if let revert = commit(old.next(new), over: current, at: version, step: step) { return revert }
        }
    }

    /// Makes `next` the current value if the state is still at `version` (whose value is
    /// `previous`), and returns the revert that brings `previous` back; nil if the state changed
    /// meanwhile.
    private func commit(_ next: Snapshot, over previous: Snapshot, at version: Int, step: StepInfo) -> (@Sendable () -> Void)? {
        let committed = storage.withLock { storage -> Int? in
            guard storage.version == version else { return nil }
            storage.lastIssued += 1
            storage.current = next
            storage.version = storage.lastIssued
            currentVersion.store(storage.version, ordering: .releasing)
            return storage.version
        }
        guard let committed else { return nil }
        let restore = PendingRestore(snapshot: previous, version: version, step: step)
        return { [self] in revert(committed, to: restore) }
    }

    /// Restores the value from before the update that produced `version`, then every pending
    /// restore that this uncovers.
    private func revert(_ version: Int, to restore: PendingRestore) {
        storage.withLock { storage in
            guard storage.version == version else {
                storage.pending[version] = restore
                anyPending.store(true, ordering: .releasing)
                return
            }
            var next: PendingRestore? = restore
            while let restore = next {
                storage.current = restore.snapshot
                storage.version = restore.version
                next = storage.pending.removeValue(forKey: restore.version)
            }
            currentVersion.store(storage.version, ordering: .releasing)
            anyPending.store(!storage.pending.isEmpty, ordering: .releasing)
        }
    }

    /// The updates whose reverts ran but could not restore, because a change made after them
    /// was never reverted (a step inside a revert changed the state); forgets them. Called at
    /// the end of every rollback and undo, so nothing pending outlives it.
    func takeUnrestored() -> [StepInfo] {
        // Every write flow asks when it completes, and almost always nothing is pending.
        guard anyPending.load(ordering: .acquiring) else { return [] }
        return storage.withLock { storage in
            defer {
                storage.pending = [:]
                anyPending.store(false, ordering: .releasing)
            }
            return storage.pending.values.map { $0.step }.sorted { $0.id < $1.id }
        }
    }
}
