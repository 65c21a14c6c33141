import TaskFlowSupport

/// How one registered revert runs.
enum RevertAction: Sendable {
    /// Nothing of its own: only the entry's children are reverted (groups and sequences).
    case none
    /// A synchronous foreground revert, run on the main actor.
    case main(@MainActor @Sendable () throws -> Void)
    /// An asynchronous revert, run off the main actor.
    case background(@Sendable () async throws -> Void)
}

/// The revert a completed step registered, with the reverts of what it registered inside it
/// (foreground sub-steps of a background step, children of a group or sequence).
struct RevertEntry: Sendable {
    let step: StepInfo
    let action: RevertAction
    /// In registration order (for groups: completion order); reverted last-first before `action`, so the step's own revert finds things as its `apply` left them.
    let children: [RevertEntry]
}

/// An append-only list of reverts in registration order, stored in place in its owner: the
/// flow's run for the flow's top level (``FlowRun/reverts``), a ``RevertLog`` for the inside of
/// a step. Concurrent group children append to their group's list as they complete, so the
/// order is their completion order.
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

/// The reverts registered inside one step (a background step's sub-steps, a group's or a
/// sequence's children), shared by the scopes inside it. Only steps that have an inside get one.
final class RevertLog: Sendable {
    let reverts = RevertList()
}
