/// A completed flow's reverts, kept while it is in the undo history.
struct UndoLog: Sendable {
    /// Its reverts, in registration order.
    let entries: [RevertEntry]
    /// The manager's state store; ``version`` is its version when this flow completed.
    let state: StateStore
    /// The state's version when the flow completed.
    let version: Int

    /// True while the manager's state is exactly as this flow left it. Undoing a flow that
    /// changed the state is only safe then: otherwise a later flow built on its changes.
    var stateIsAsLeft: Bool { state.version == version }

    /// The updates the undo's reverts could not restore (see ``StateStore/takeUnrestored()``).
    func takeUnrestored() -> [StepInfo] { state.takeUnrestored() }

    /// Whether any revert (at any depth) restores the manager's state.
    var touchesState: Bool { Self.touchesState(entries) }

    private static func touchesState(_ entries: [RevertEntry]) -> Bool {
        entries.contains { $0.step.kind == .update || touchesState($0.children) }
    }
}
