import Synchronization

/// The outbox demo's simulated network, which the user switches with `n`: while it is down,
/// sending answers "retry when ready" and e-mails park with their retry count unchanged.
final class OutboxNetwork: Sendable {
    private let up = Atomic<Bool>(true)

    var isUp: Bool { up.load(ordering: .relaxed) }

    /// Switches the network; returns whether it is up now.
    @discardableResult
    func toggle() -> Bool {
        up.logicalXor(true, ordering: .relaxed).newValue
    }
}
