/// The manager's state value, with a version that tells whether anyone changed it since.
///
/// Every `update` gets a fresh, never reused version. Its revert restores the old value only if
/// the state still carries the version that update produced; otherwise a later flow changed it
/// and restoring would silently throw that flow's work away, so the revert fails instead.
final class StateStore<State: Sendable>: Sendable {
    private struct Versioned {
        var value: State
        var version = 0
        var lastIssued = 0
    }

    private let storage: Protected<Versioned>

    init(_ value: State) { storage = Protected(Versioned(value: value)) }

    var value: State { storage.withLock { $0.value } }

    /// Identifies the state's current value: it changes with every update and every restore.
    var version: Int { storage.withLock { $0.version } }

    /// Applies `change` and returns the revert that restores the previous value; the revert
    /// returns false, restoring nothing, if the state changed since.
    ///
    /// `change` runs outside the lock, on a copy, so it may read the state itself. The copy is
    /// committed only if nobody changed the state meanwhile (two children of one group updating
    /// at once); otherwise `change` runs again on the newer value.
    func update(_ change: (inout State) throws -> Void) throws -> @Sendable () -> Bool {
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
            return { [self] in
                storage.withLock { storage in
                    guard storage.version == newVersion else { return false }
                    storage.value = old
                    storage.version = oldVersion
                    return true
                }
            }
        }
    }
}
