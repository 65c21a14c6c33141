/// What a completed write flow keeps so it can be undone later.
struct UndoLog: Sendable {
    /// Its reverts, in registration order.
    let entries: [RevertEntry]
    /// True while the manager's state is exactly as this flow left it. Undoing a flow that
    /// changed the state is only safe then: otherwise a later flow built on its changes.
    let stateIsAsLeft: @Sendable () -> Bool
    /// The updates the undo's reverts could not restore (see ``StateStore/takeUnrestored()``).
    let takeUnrestored: @Sendable () -> [StepInfo]

    /// Whether any revert (at any depth) restores the manager's state.
    var touchesState: Bool { Self.touchesState(entries) }

    private static func touchesState(_ entries: [RevertEntry]) -> Bool {
        entries.contains { $0.step.kind == .update || touchesState($0.children) }
    }
}
