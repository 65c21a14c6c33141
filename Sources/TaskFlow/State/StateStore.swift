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

    init(_ value: State) { storage = Protected(Versioned(value: value)) }

    var value: State { storage.withLock { $0.value } }

    /// Identifies the state's current value: it changes with every update and every restore.
    var version: Int { storage.withLock { $0.version } }

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
                return storage.version
            }
            guard let newVersion = committed else { continue }
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
                return
            }
            var next: PendingRestore? = restore
            while let restore = next {
                storage.value = restore.value
                storage.version = restore.version
                next = storage.pending.removeValue(forKey: restore.version)
            }
        }
    }

    /// The updates whose reverts ran but could not restore, because a change made after them
    /// was never reverted (a step inside a revert changed the state); forgets them. Called at
    /// the end of every rollback and undo, so nothing pending outlives it.
    func takeUnrestored() -> [StepInfo] {
        storage.withLock { storage in
            defer { storage.pending = [:] }
            return storage.pending.values.map(\.step).sorted { $0.id < $1.id }
        }
    }
}
