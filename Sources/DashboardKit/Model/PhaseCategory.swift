import TaskFlow

/// The groups of flow phases the header counts, in display order.
package enum PhaseCategory: String, Sendable, CaseIterable {
    /// Queued or waiting for the lock.
    case waiting
    /// Running.
    case running
    /// Cancelling, rolling back or undoing.
    case rollingBack = "rolling back"
    /// Completed.
    case completed
    /// Failed, or a rollback left reverts failed.
    case failed
    /// Cancelled.
    case cancelled
    /// Undone.
    case undone

    /// True for the categories of flows that can still change without an undo.
    package var isActive: Bool {
        switch self {
        case .waiting, .running, .rollingBack: true
        case .completed, .cancelled, .failed, .undone: false
        }
    }
}

extension FlowPhase {
    /// The header counter this phase adds to.
    package var category: PhaseCategory {
        switch self {
        case .queued, .waiting: .waiting
        case .running: .running
        case .cancelling, .rollingBack, .undoing: .rollingBack
        case .completed: .completed
        case .cancelled: .cancelled
        case .failed, .rollbackIncomplete: .failed
        case .undone: .undone
        }
    }

    /// True while the flow can still change without an undo: a quit must wait for it.
    package var isActive: Bool { category.isActive }
}
