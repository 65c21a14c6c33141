import Synchronization

/// While a background step's revert runs: its context may start sub-steps then, and only then.
final class RevertWindow: Sendable {
    private let open = Atomic<Bool>(true)

    /// Whether the revert is still running.
    var isOpen: Bool { open.load(ordering: .acquiring) }

    /// The revert returned or threw.
    func close() { open.store(false, ordering: .releasing) }
}
