/// How a step's `apply` ended.
public enum StepOutcome: Sendable, Hashable {
    /// Applied; its revert is registered.
    case completed
    /// Stopped early because its flow or group was cancelled; not reverted itself.
    case cancelled
    /// Threw; not reverted itself. The message is the error's description.
    case failed(String)
}
