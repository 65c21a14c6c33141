/// What a flow's body (``FlowContext``) and a background step (``TaskContext``) share: every
/// way to run a step. A background step continues its flow with the same calls as the flow
/// itself, nested to any depth; what a step runs inside itself is reverted inside it, last
/// first, before the step's own revert.
///
/// Every method runs one step: it does not start once the flow (or, in a group, a sibling's
/// failure) asked to stop — it throws `CancellationError`, which rolls the flow back — and once
/// complete it registers its revert. If the step throws, it is not reverted itself, but what it
/// registered inside itself is, and the error goes on to the caller. A context is only valid
/// inside its flow's body: a step started after the body ended throws
/// ``FlowError/stepAfterFlowEnded(flow:step:)``.
public protocol StepContext<State>: Sendable {
    /// The manager's state type.
    associatedtype State: Sendable
    /// Where this context's steps run and register their reverts (opaque).
    var scope: StepScope<State> { get }
}

extension StepContext {
    /// True once the flow (or, in a group, a sibling's failure) asked to stop: the current step
    /// may stop early by throwing `CancellationError`; the next step would not start anyway.
    /// Always false inside a revert: reverts run in full.
    public var isCancelled: Bool { scope.isCancelled }

    /// A read flow's snapshot, taken when it got the lock and unaffected by later writers; a
    /// write flow's current state, including its own updates.
    public var state: State { scope.state }

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

    /// Runs `apply` off the main actor as a background step, then registers `revert`, which
    /// receives what `apply` returned and also runs off the main actor. The steps `apply` runs
    /// through its ``TaskContext`` (foreground sub-steps, background steps, groups, sequences,
    /// updates) are reverted inside this step, last first, before `revert`. Without `revert`
    /// (read flows), only those are reverted.
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
    /// value.
    ///
    /// `change` works on a copy outside any lock, so it may read ``state``. If another step of
    /// this flow updates the state at the same moment (children of a group), `change` runs again
    /// on the newer value, so no update is lost, and the rollback restores the state as it was
    /// before the first of them whatever order their reverts run in. An undo that would discard
    /// a later flow's changes is refused before any revert runs (``FlowError/stateChangedSince(flow:)``).
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
