/// What a background step's `apply` and `revert` work with.
public struct TaskContext<State: Sendable>: Sendable {
    let scope: StepScope<State>
    /// The step this context belongs to.
    public let step: StepInfo
    private let gate = ProgressGate()

    init(scope: StepScope<State>, step: StepInfo) {
        self.scope = scope
        self.step = step
    }

    /// True once the flow (or, in a group, a sibling's failure) asked to stop. The step may
    /// stop early by throwing `CancellationError`; it is then not reverted itself, but its
    /// foreground sub-steps are. Always false inside a revert: reverts run in full.
    public var isCancelled: Bool { scope.cancellation.isCancelled }

    /// The flow's state: a read flow's snapshot or a write flow's current state.
    public var state: State { scope.run.state }

    /// Reports progress (0...1, clamped). Cheap to call in a tight loop: reports are coalesced
    /// to at most one event per whole percent and per 20 ms; 100 % always gets through, and the
    /// last value reported is published when the step ends.
    public func progress(_ fraction: Double) {
        gate.report(fraction, publish: publish)
    }

    /// Publishes the last report the gate held back, once the step is over.
    func publishLastProgress() {
        gate.flush(publish: publish)
    }

    private func publish(_ fraction: Double) {
        scope.run.record.progressed(step.id, fraction)
    }

    /// A foreground sub-step: runs `apply` on the main actor and registers `revert` inside this
    /// step, to be reverted (on the main actor, last-first) when this step is.
    @discardableResult
    public func main<T: Sendable>(
        title: String = "Main",
        apply: @MainActor @Sendable () throws -> T,
        revert: @escaping @MainActor @Sendable (T) throws -> Void
    ) async throws -> T {
        try await scope.main(title, apply: apply, revert: revert)
    }

    /// Reads something on the main actor. Nothing is registered.
    public func main<T: Sendable>(title: String = "Query", query: @MainActor @Sendable () throws -> T) async throws -> T {
        try await scope.main(title, apply: query, revert: nil)
    }
}
