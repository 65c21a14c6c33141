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
    /// Where steps read whether to stop: their flow's own flag, or a scope's (which reads its
    /// own parent in turn). What a step scope holds (``ScopeCore``), and what a scope nests in.
    enum Source: Sendable {
        /// The flow's own flag: the steps outside any group.
        case flow(FlowRecord)
        /// A group's or a revert's scope.
        case scope(CancellationScope)

        var isCancelled: Bool {
            switch self {
            case .flow(let flow): flow.isCancelled
            case .scope(let scope): scope.isCancelled
            }
        }
    }

    private let flag = Atomic<Bool>(false)
    /// The flag this one is nested in; nil for a revert's scope, which nothing outside it cancels.
    private let parent: Source?

    init(parent: Source?) { self.parent = parent }

    var isCancelled: Bool {
        flag.load(ordering: .acquiring) || (parent?.isCancelled ?? false)
    }

    /// Sets the flag; returns true only for the call that set it.
    @discardableResult
    func cancel() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}
