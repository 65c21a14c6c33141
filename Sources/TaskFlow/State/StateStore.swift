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
final class StateStore<State: Sendable>: VersionedState {
    private struct Versioned {
        var value: State
        var version = 0
        var lastIssued = 0
        /// Reverts that came while a later update was still in place, by the version their own
        /// update produced: each applies once the state is back at that version.
        var pending: [Int: PendingRestore] = [:]
    }

    private struct PendingRestore {
        let value: State
        let version: Int
        let step: StepInfo
    }

    private let storage: Protected<Versioned>
    /// ``Versioned/version`` and whether ``Versioned/pending`` holds any, kept beside the storage
    /// (written under its lock) so that the questions every write flow asks — its undo log's
    /// version, whether a restore is left over — are one atomic load: the generic storage's lock
    /// looks up its generic metadata at each use, in code called from other modules.
    private let currentVersion = Atomic<Int>(0)
    private let anyPending = Atomic<Bool>(false)
    /// The last snapshot a read flow took (a `StateSnapshot<State>`) and the version it shows.
    /// Behind a lock of its own, not generic: read flows ask for it, and the generic storage's
    /// lock costs several metadata look-ups at each use. A version identifies its value (a
    /// restore that brings a version back brings its value back), so a snapshot stays right for
    /// as long as its version is current, and again whenever it is.
    private let lastSnapshot = Protected<(version: Int, snapshot: any AnyObject & Sendable)?>(nil)

    init(_ value: State) { storage = Protected(Versioned(value: value)) }

    var value: State { storage.withLock { $0.value } }

    /// The current value as an immutable `StateSnapshot<State>`, shared with the other read
    /// flows that ask while the state stays at this version: a read flow's run holds it, and
    /// only the first read flow after a change pays for a copy of the state (or the first few,
    /// when several ask at that very moment; each of theirs is right).
    func snapshot() -> any AnyObject & Sendable {
        let current = currentVersion.load(ordering: .acquiring)
        if let last = lastSnapshot.withLock({ $0 }), last.version == current { return last.snapshot }
        let (value, version) = storage.withLock { ($0.value, $0.version) }
        let snapshot = StateSnapshot(value)
        lastSnapshot.withLock { $0 = (version, snapshot) }
        return snapshot
    }

    /// Identifies the state's current value: it changes with every update and every restore.
    var version: Int { currentVersion.load(ordering: .acquiring) }

    /// Applies `change` (the work of `step`) and returns its revert, which restores the previous
    /// value now or, if later updates are still in place, as soon as they are reverted.
    ///
    /// `change` runs outside the lock, on a copy, so it may read the state itself. The copy is
    /// committed only if nobody changed the state meanwhile (two children of one group updating
    /// at once); otherwise `change` runs again on the newer value.
    func update(_ step: StepInfo, _ change: (inout State) throws -> Void) throws -> @Sendable () -> Void {
        while true {
            let (old, oldVersion) = storage.withLock { ($0.value, $0.version) }
            var new = old
            try change(&new)
            let committed = storage.withLock { storage -> Int? in
                guard storage.version == oldVersion else { return nil }
                storage.lastIssued += 1
                storage.value = new
                storage.version = storage.lastIssued
                currentVersion.store(storage.version, ordering: .releasing)
                return storage.version
            }
            guard let newVersion = committed else { continue }
            // The old value's snapshot would never be handed out again (its version is gone
            // until a revert brings it back): let it go now, not at the next read flow.
            lastSnapshot.withLock { $0 = nil }
            let restore = PendingRestore(value: old, version: oldVersion, step: step)
            return { [self] in revert(newVersion, to: restore) }
        }
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
                storage.value = restore.value
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
        // Every write flow asks when it completes, and almost always nothing is pending: asked
        // of the atomic, not the generic storage. (A key path here, `map(\.step)`, was built
        // anew at each call on this generic type, and cost more than the rest of an empty flow.)
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
