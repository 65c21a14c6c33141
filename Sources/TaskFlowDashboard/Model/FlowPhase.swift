import TaskFlow

/// A flow's status as the dashboard shows it: ``FlowStatus`` made `Equatable` (errors become
/// their messages) so that models can be compared in tests and snapshots.
public enum FlowPhase: Sendable, Hashable {
    /// Submitted, not yet asking for the lock.
    case queued
    /// In the lock's queue.
    case waiting
    /// Holding the lock, body running.
    case running
    /// Cancel requested; the current step is finishing.
    case cancelling
    /// Reverts running after a cancel or a failure.
    case rollingBack
    /// An undo is waiting for the lock or reverting.
    case undoing
    /// The body returned.
    case completed
    /// Cancelled; everything registered was reverted.
    case cancelled
    /// A step threw (its message); everything registered was reverted.
    case failed(String)
    /// Some reverts threw (their messages); the others ran.
    case rollbackIncomplete(String)
    /// Undone after completing.
    case undone

    /// Converts the engine's status.
    public init(_ status: FlowStatus) {
        switch status {
        case .queued: self = .queued
        case .waiting: self = .waiting
        case .running: self = .running
        case .cancelling: self = .cancelling
        case .rollingBack: self = .rollingBack
        case .undoing: self = .undoing
        case .completed: self = .completed
        case .cancelled: self = .cancelled
        case .failed(let error): self = .failed(String(describing: error))
        case .rollbackIncomplete(_, let failures):
            self = .rollbackIncomplete(failures.map(\.description).joined(separator: "; "))
        case .undone: self = .undone
        }
    }

    /// The short label shown in the flow list ("rolling back", "failed").
    public var label: String {
        switch self {
        case .queued: "queued"
        case .waiting: "waiting"
        case .running: "running"
        case .cancelling: "cancelling"
        case .rollingBack: "rolling back"
        case .undoing: "undoing"
        case .completed: "done"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .rollbackIncomplete: "incomplete"
        case .undone: "undone"
        }
    }

    /// Why the flow failed or its rollback is incomplete; nil otherwise.
    public var failureMessage: String? {
        switch self {
        case .failed(let message), .rollbackIncomplete(let message): message
        default: nil
        }
    }

    /// The header counter this phase adds to.
    public var category: PhaseCategory {
        switch self {
        case .queued, .waiting: .waiting
        case .running: .running
        case .cancelling, .rollingBack, .undoing: .rollingBack
        case .completed: .done
        case .cancelled: .cancelled
        case .failed, .rollbackIncomplete: .failed
        case .undone: .undone
        }
    }

    /// True while the flow can still change without an undo: a quit must wait for it.
    public var isActive: Bool { category.isActive }

    /// True while a cancel still has an effect (the engine ignores it afterwards).
    public var acceptsCancel: Bool {
        switch self {
        case .queued, .waiting, .running: true
        default: false
        }
    }
}

/// The groups of phases counted in the header, in display order.
public enum PhaseCategory: String, Sendable, CaseIterable {
    /// Queued or waiting for the lock.
    case waiting
    /// Running.
    case running
    /// Cancelling, rolling back or undoing.
    case rollingBack = "rolling back"
    /// Completed.
    case done
    /// Failed, or a rollback left reverts failed.
    case failed
    /// Cancelled.
    case cancelled
    /// Undone.
    case undone

    /// True for the categories of flows that can still change without an undo.
    public var isActive: Bool {
        switch self {
        case .waiting, .running, .rollingBack: true
        case .done, .cancelled, .failed, .undone: false
        }
    }
}
