/// Where steps run and register their reverts: the flow itself, the inside of a background
/// step, or the inside of a group or sequence. Opaque outside the engine: ``StepContext``
/// requires one so that ``FlowContext`` and ``TaskContext`` share every step method.
///
/// A typed face over `ScopeCore`, which runs every kind of step, so events, cancellation and
/// revert registration behave the same everywhere. This type adds only what needs `State`.
/// Its step methods and properties are inlined into their callers in this module
/// (``StepContext``'s methods, ``CompositeBuilder``), which run unspecialised because their own
/// callers are in other modules; there a call to a method of a generic type looks the type's
/// metadata up at run time first, about 330 instructions a call. (The durable step,
/// `recordedTask`, is called from another module, where inlining would not help.)
public struct StepScope<State: Sendable>: Sendable {
    let core: ScopeCore

    @inline(__always)
    init(_ core: ScopeCore) { self.core = core }

    /// The flow its steps belong to.
    var record: FlowRecord {
        @inline(__always) get { core.record }
    }

    /// Whether this scope's steps were asked to stop (see ``ScopeCore/isCancelled``).
    var isCancelled: Bool {
        @inline(__always) get { core.isCancelled }
    }

    /// A read flow's snapshot; a write flow's current state. Sound: a manager registers each of
    /// its flows with its own store (``TaskFlowManager``'s `execute`), whose `State` this scope
    /// has, and a record never gets another, so the store's snapshots are `StateSnapshot<State>`.
    var state: State {
        @inline(__always) get {
            let record = core.record
            // A write flow reads the store itself: no lock taken for a snapshot it never has.
            guard record.info.access == .read, let snapshot = record.stateSnapshot else {
                return record.run.store.value(as: State.self)
            }
            return unsafeDowncast(snapshot, to: StateSnapshot<State>.self).value
        }
    }

    // MARK: - The step kinds, shared by FlowContext, TaskContext and a builder's task children

    @inline(__always)
    func main<T: Sendable>(
        _ title: String,
        apply: @MainActor @Sendable () throws -> T,
        revert: (@MainActor @Sendable (T) throws -> Void)?
    ) async throws -> T {
        try await core.main(title, apply: apply, revert: revert)
    }

    @inline(__always)
    func task<T: Sendable>(
        _ title: String,
        apply: (TaskContext<State>) async throws -> T,
        revert: (@Sendable (TaskContext<State>, T) async throws -> Void)?
    ) async throws -> T {
        let core = core
        return try await core.perform(title, .task) { step in
            // Whatever the outcome, observers see the last progress the step reported: its end
            // publishes what the filter held back.
            try await apply(TaskContext(scope: StepScope(core.child(of: step.id)), step: step))
        } revert: { step, value in
            guard let revert else { return .none }
            // Capture only the flow's record, not this scope. (The run's list, or the parent
            // step's slot in the record, holds this closure, which holds the record: a cycle
            // that lasts until the parent takes it or the flow ends, which empties both.)
            let record = core.record
            return .background {
                // A revert runs outside the flow's cancellation (reverts always run in full);
                // what it registers itself is not kept. Built only when the revert runs, so a
                // step that is never reverted costs nothing for it.
                let window = RevertWindow()
                defer { window.close() }
                let revertScope = ScopeCore(
                    record: record, parent: step.id, keepsReverts: false, cancellation: .scope(CancellationScope(parent: nil)),
                    revertWindow: window)
                try await revert(TaskContext(scope: StepScope(revertScope), step: step), value)
            }
        }
    }

    @inline(__always)
    func update(_ title: String, _ change: (inout State) throws -> Void) async throws {
        guard core.record.info.access == .write else {
            throw FlowError.updateInReadFlow(flow: core.record.info)
        }
        let store = core.record.run.store
        _ = try await core.perform(title, .update) { step in
            try store.update(step, as: State.self, change)
        } revert: { _, restore in
            .background(restore)
        }
    }

    /// Runs a group or sequence as one step whose reverts are its children's.
    @inline(__always)
    func perform(_ composite: CompositeStep<State>) async throws {
        try await core.perform(composite.body)
    }
}
