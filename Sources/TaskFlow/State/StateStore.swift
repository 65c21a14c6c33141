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

    /// Applies `change` atomically and returns the revert that restores the previous value.
    /// The revert returns false, restoring nothing, if the state changed since.
    func update(_ change: (inout State) throws -> Void) throws -> @Sendable () -> Bool {
        let (old, oldVersion, newVersion) = try storage.withLock { storage in
            var value = storage.value
            try change(&value)
            let old = (storage.value, storage.version)
            storage.lastIssued += 1
            storage.value = value
            storage.version = storage.lastIssued
            return (old.0, old.1, storage.version)
        }
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
