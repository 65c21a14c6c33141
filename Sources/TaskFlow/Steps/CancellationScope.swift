import Synchronization

/// A cooperative cancellation flag of its own, for the steps inside a group (a sibling's failure
/// stops them) or inside a revert (nothing outside stops it), that also reads the flag it is
/// nested in: the enclosing group's, else the flow's. The steps of a flow outside any group have
/// no scope of their own: they read their flow's flag (``FlowRecord/isCancelled``), kept in its
/// record, so that a flow is one object, not two.
///
/// TaskFlow deliberately does not use Swift task cancellation for steps: a cancelled Swift task
/// makes `Task.sleep` and other awaits throw mid-step, which would interrupt a step half-way
/// and leave work that no revert covers. Here a step always finishes unless it chooses to stop
/// by checking ``TaskContext/isCancelled``, and reverts always run in full.
final class CancellationScope: Sendable {
    /// The flag a scope is nested in.
    enum Parent: Sendable {
        /// An enclosing group's.
        case scope(CancellationScope)
        /// The flow's own.
        case flow(FlowRecord)
    }

    private let flag = Atomic<Bool>(false)
    /// Nil for a revert's scope, which nothing outside it cancels.
    private let parent: Parent?

    init(parent: Parent?) { self.parent = parent }

    var isCancelled: Bool {
        guard !flag.load(ordering: .acquiring) else { return true }
        switch parent {
        case .scope(let scope): return scope.isCancelled
        case .flow(let flow): return flow.isCancelled
        case nil: return false
        }
    }

    /// Sets the flag; returns true only for the call that set it.
    @discardableResult
    func cancel() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}
