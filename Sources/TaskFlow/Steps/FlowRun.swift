import Synchronization

/// What one flow's steps share while its body runs: the flow's record, its state, and whether
/// the body is still running.
final class FlowRun<State: Sendable>: Sendable {
    let record: FlowRecord
    let store: StateStore<State>
    /// The copy a read flow sees, taken when it got the lock; nil for write flows.
    let snapshot: State?
    /// False once the body returned or threw: a step started after that (through a context the
    /// body let escape) could never be reverted, so it is refused.
    private let open = Atomic<Bool>(true)

    init(record: FlowRecord, store: StateStore<State>) {
        self.record = record
        self.store = store
        snapshot = record.info.access == .read ? store.value : nil
    }

    var state: State { snapshot ?? store.value }

    var rollback: Rollback { Rollback(record: record) }

    /// Whether steps may still start.
    var isOpen: Bool { open.load(ordering: .acquiring) }

    /// The body ended: no step may start from now on.
    func close() { open.store(false, ordering: .releasing) }
}
