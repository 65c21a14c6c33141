/// Where a step is in its life, as a late observer's ``FlowSnapshot/steps`` shows it and as the
/// step events tell it: running, then completed, cancelled or failed; during a rollback or an
/// undo, reverting, then reverted or revert failed.
public enum StepStatus: Sendable, Hashable {
    /// Its `apply` is running.
    case running
    /// Applied; its revert is registered.
    case completed
    /// Stopped early because its flow or group was cancelled; not reverted itself.
    case cancelled
    /// Threw; not reverted itself. The message is the error's description.
    case failed(String)
    /// Its revert is running.
    case reverting
    /// Its revert ended without error.
    case reverted
    /// Its revert threw. The message is the error's description.
    case revertFailed(String)

    /// The status a step reaches when its `apply` ends with `outcome`.
    public init(_ outcome: StepOutcome) {
        switch outcome {
        case .completed: self = .completed
        case .cancelled: self = .cancelled
        case .failed(let message): self = .failed(message)
        }
    }

    /// The status's name in lowercase words, the same words as ``FlowPhase/name`` (a cancelled
    /// step is "cancelled", like its flow): "running", "revert failed".
    public var name: String {
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

/// One step of a live flow at the moment of a snapshot.
public struct StepSnapshot: Sendable, Hashable {
    /// Identity, parent, title and kind.
    public let info: StepInfo
    /// Where it is now.
    public let status: StepStatus
    /// Its last published progress, if it reported any.
    public let progress: Double?
    /// When it started. The engine's snapshots always tell; nil in one made without it (an
    /// older program's, over the console).
    public let started: ContinuousClock.Instant?
    /// When its own run ended (completed, failed or cancelled; a later revert does not change
    /// it); nil while it runs, or when not told.
    public let ended: ContinuousClock.Instant?

    /// Describes one step.
    public init(
        info: StepInfo, status: StepStatus, progress: Double?,
        started: ContinuousClock.Instant? = nil, ended: ContinuousClock.Instant? = nil
    ) {
        self.info = info
        self.status = status
        self.progress = progress
        self.started = started
        self.ended = ended
    }
}
