/// A completed flow's reverts, kept while it is in the undo history.
struct UndoLog: Sendable {
    /// Its reverts, in registration order.
    let entries: [RevertEntry]
    /// The manager's state, as this flow left it at ``version``. Held as a protocol (one
    /// reference, no closure context to allocate per flow).
    let state: any VersionedState
    /// The state's version when the flow completed.
    let version: Int

    /// True while the manager's state is exactly as this flow left it. Undoing a flow that
    /// changed the state is only safe then: otherwise a later flow built on its changes.
    var stateIsAsLeft: Bool { state.version == version }

    /// The updates the undo's reverts could not restore (see ``VersionedState/takeUnrestored()``).
    func takeUnrestored() -> [StepInfo] { state.takeUnrestored() }

    /// Whether any revert (at any depth) restores the manager's state.
    var touchesState: Bool { Self.touchesState(entries) }

    private static func touchesState(_ entries: [RevertEntry]) -> Bool {
        entries.contains { $0.step.kind == .update || touchesState($0.children) }
    }
}

/// What an undo needs of the manager's state, whatever its type: whether it changed since, and
/// which updates a rollback could not restore.
protocol VersionedState: AnyObject, Sendable {
    /// Changes with every change of the state (a restore may bring an older version back).
    var version: Int { get }
    /// The updates whose reverts found a later change still in place, since the last call.
    func takeUnrestored() -> [StepInfo]
}
