/// The manager's state at one version, as read flows see it: immutable, shared by the read
/// flows that got the lock while the state stayed at that version (``StateStore/snapshot()``).
///
/// An object rather than a `State?` in each flow's run: a run that held a `State?` was generic
/// over the state, and generic code called from other modules looks up the type metadata of
/// `FlowRun<State>` and `Optional<State>` at run time, three look-ups of 330–420 instructions
/// for every flow, write flows included.
final class StateSnapshot<State: Sendable>: Sendable {
    let value: State

    init(_ value: State) { self.value = value }
}
