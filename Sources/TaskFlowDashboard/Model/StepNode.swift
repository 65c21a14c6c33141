import TaskFlow

/// Where one step of a flow stands, as the detail pane shows it.
public enum StepPhase: Sendable, Hashable {
    /// Its apply is running.
    case running
    /// Applied.
    case completed
    /// Ended early because its flow or group was cancelled.
    case cancelled
    /// Its apply threw (the message).
    case failed(String)
    /// Its revert is running.
    case reverting
    /// Reverted.
    case reverted
    /// Its revert threw (the message).
    case revertFailed(String)

    /// The phase a step's apply ended in.
    public init(_ outcome: StepOutcome) {
        switch outcome {
        case .completed: self = .completed
        case .cancelled: self = .cancelled
        case .failed(let message): self = .failed(message)
        }
    }

    /// The label shown next to the step: the words of the flow vocabulary (a cancelled step
    /// is "cancelled", like its flow).
    public var label: String {
        switch self {
        case .running: "running"
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .reverting: "reverting"
        case .reverted: "reverted"
        case .revertFailed: "revert failed"
        }
    }
}

/// One step of a flow in the detail pane's tree.
public struct StepNode: Sendable, Hashable {
    /// The engine's description: id, parent, title, kind.
    public let info: StepInfo
    /// How deep it is nested under groups, sequences and background steps (0 at the top).
    public let depth: Int
    /// Its current phase.
    public var phase: StepPhase = .running
    /// When its apply started, since the dashboard started.
    public let startedAt: Duration
    /// When its apply ended; the duration shown stays the apply's during a rollback.
    public var endedAt: Duration?
    /// Its last reported progress (0...1) while running.
    public var progress: Double?

    /// How long its apply ran (or has been running, at `now`).
    public func duration(at now: Duration) -> Duration {
        (endedAt ?? now) - startedAt
    }
}
