/// What a flow's body works with. Every method runs one step: it does not start if the flow was
/// cancelled (it throws `CancellationError`, which rolls the flow back), and once complete it
/// registers its revert. If the step throws, the flow fails and rolls back.
public struct FlowContext<State: Sendable>: Sendable {
    let scope: StepScope<State>

    /// The flow's identity.
    public var id: FlowID { scope.run.record.info.id }
    /// The flow's title.
    public var title: String { scope.run.record.info.title }
    /// Read or write.
    public var access: FlowAccess { scope.run.record.info.access }

    /// True once the flow was cancelled: the current step may stop early by throwing
    /// `CancellationError`; the next step would not start anyway.
    public var isCancelled: Bool { scope.cancellation.isCancelled }

    /// A read flow's snapshot, taken when it got the lock and unaffected by later writers; a
    /// write flow's current state, including its own updates.
    public var state: State { scope.run.state }

    /// Runs `apply` synchronously on the main actor (the foreground queue), then registers
    /// `revert`, which gets what `apply` returned and also runs on the main actor.
    @discardableResult
    public func main<T: Sendable>(
        title: String = "Main",
        apply: @MainActor @Sendable () throws -> T,
        revert: @escaping @MainActor @Sendable (T) throws -> Void
    ) async throws -> T {
        try await scope.main(title, apply: apply, revert: revert)
    }

    /// Reads something on the main actor. Nothing to revert, so nothing is registered.
    public func main<T: Sendable>(title: String = "Query", query: @MainActor @Sendable () throws -> T) async throws -> T {
        try await scope.main(title, apply: query, revert: nil)
    }

    /// Runs `apply` off the main actor, then registers `revert`, which receives what `apply`
    /// returned and also runs off the main actor. Foreground sub-steps that `apply` runs through
    /// ``TaskContext/main(title:apply:revert:)`` are reverted right after `revert`, last-first.
    /// Without `revert` (read flows), only those sub-steps are reverted.
    @discardableResult
    public func task<T: Sendable>(
        title: String,
        apply: (TaskContext<State>) async throws -> T,
        revert: (@Sendable (TaskContext<State>, T) async throws -> Void)? = nil
    ) async throws -> T {
        try await scope.task(title, apply: apply, revert: revert)
    }

    /// Changes the manager's state atomically (write flows only; a read flow gets
    /// ``FlowError/updateInReadFlow(flow:)``) and registers a revert that restores the previous
    /// value. That revert fails with ``FlowError/stateChangedSinceUpdate(step:)`` rather than
    /// overwrite changes a later flow made, so an out-of-order undo never loses work silently.
    ///
    /// `change` works on a copy outside any lock, so it may read ``state``. If another task of
    /// this flow updates the state at the same moment, `change` runs again on the newer value,
    /// so no update is lost; the reverts of such concurrent updates can only restore the state
    /// when they complete in the order they were applied, so prefer sequential updates.
    public func update(title: String = "Update state", _ change: (inout State) throws -> Void) async throws {
        try await scope.update(title, change)
    }

    /// Runs a group: children in parallel. See ``CompositeStep``.
    public func group(title: String, _ build: (CompositeBuilder<State>) throws -> Void) async throws {
        try await scope.perform(.group(title: title, build))
    }

    /// Runs a sequence: children one after another. See ``CompositeStep``.
    public func sequence(title: String, _ build: (CompositeBuilder<State>) throws -> Void) async throws {
        try await scope.perform(.sequence(title: title, build))
    }

    /// Runs a reusable group or sequence description.
    public func perform(_ composite: CompositeStep<State>) async throws {
        try await scope.perform(composite)
    }
}
