/// The manager's state at one version: immutable. The ``StateStore`` holds the current one,
/// read flows share it while the state stays at that version, and each update's revert holds
/// the one it restores.
///
/// An object rather than a `State?` in each flow's run: a run that held a `State?` was generic
/// over the state, and generic code called from other modules looks up the type metadata of
/// `FlowRun<State>` and `Optional<State>` at run time, three look-ups of 330–420 instructions
/// for every flow, write flows included.
final class StateSnapshot<State: Sendable>: Sendable {
    let value: State

    init(_ value: State) { self.value = value }

    /// A snapshot of `value`, made through this one's class: its metadata is read from this
    /// object, not looked up from `State` (about 325 instructions in code called from other
    /// modules, where `State` is not known).
    @inline(__always)
    func next(_ value: consuming State) -> StateSnapshot<State> {
        type(of: self).init(value)
    }
}
