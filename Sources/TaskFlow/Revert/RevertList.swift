import TaskFlowSupport

/// The reverts of a flow's top-level steps, in registration order, stored in place in the
/// flow's run (``FlowRun/reverts``). (A step's inside registers in its slot of the flow's
/// record instead: see ``FlowRecord/stepCompleted(_:_:keeping:)``.) Steps the body runs
/// at once (from tasks of its own) append as they complete, so the order is their completion
/// order.
struct RevertList: ~Copyable, Sendable {
    private let entries = Protected<[RevertEntry]>([])

    init() {}

    func append(_ entry: RevertEntry) {
        entries.withLock { $0.append(entry) }
    }

    /// Empties the list and returns what it held, in registration order.
    func drain() -> [RevertEntry] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }
}
