/// How one registered revert runs.
enum RevertAction: Sendable {
    /// Nothing of its own: only the entry's children are reverted (groups and sequences).
    case none
    /// A synchronous foreground revert, run on the main actor.
    case main(@MainActor @Sendable () throws -> Void)
    /// An asynchronous revert, run off the main actor.
    case background(@Sendable () async throws -> Void)

    /// Whether the action is ``none``.
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

/// The revert a completed step registered, with the reverts of what it registered inside it
/// (foreground sub-steps of a background step, children of a group or sequence).
struct RevertEntry: Sendable {
    let step: StepInfo
    let action: RevertAction
    /// In registration order (for groups: completion order); reverted last-first before `action`, so the step's own revert finds things as its `apply` left them.
    let children: [RevertEntry]
}
