/// What a background step's `apply` and `revert` work with: progress, and every step method of
/// ``StepContext``, so the step continues its flow (foreground sub-steps, background steps,
/// groups, sequences, updates) as one line of execution. What it runs is reverted inside it,
/// last first, before its own revert (a sub-step started from a task the step did not await,
/// and ending after the step, is reverted with the flow's top-level steps instead). Inside a
/// revert, `isCancelled` is always false and what the revert's own steps register is not kept.
public struct TaskContext<State: Sendable>: StepContext {
    /// Where this step's sub-steps run (opaque).
    public let scope: StepScope<State>
    /// The step this context belongs to.
    public let step: StepInfo

    init(scope: StepScope<State>, step: StepInfo) {
        self.scope = scope
        self.step = step
    }

    /// Reports progress (0...1, clamped). Cheap to call in a tight loop: reports are coalesced
    /// to at most one event per whole percent and per 20 ms; 100 % always gets through, and the
    /// last value reported is published when the step ends.
    public func progress(_ fraction: Double) {
        scope.record.reportProgress(step.id, fraction)
    }
}
