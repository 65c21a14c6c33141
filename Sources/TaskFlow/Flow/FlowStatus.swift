/// Why a flow's registered reverts are being run.
public enum RollbackCause: Sendable {
    /// ``TaskFlow/cancel()`` was called (or a step threw `CancellationError`).
    case cancelled
    /// A step threw this error.
    case failed(any Error)
    /// ``TaskFlow/undo()`` was called on the completed flow.
    case undo

    /// `CancellationError` means cancelled; any other error, failed.
    init(_ error: any Error) {
        self = error is CancellationError ? .cancelled : .failed(error)
    }
}

/// A revert that threw during a rollback. The rollback went on without it.
public struct RevertFailure: Sendable, CustomStringConvertible {
    /// The step whose revert threw.
    public let step: StepInfo
    /// What the revert threw.
    public let error: any Error

    /// Records a failed revert.
    public init(step: StepInfo, error: any Error) {
        self.step = step
        self.error = error
    }

    /// "revert of '<step>' failed: <error>".
    public var description: String { "revert of '\(step.title)' failed: \(error)" }
}

/// The lifecycle of a flow. Each flow moves forward through these states only:
///
/// ```
/// queued ─┬─▶ running ─▶ completed ─▶ undoing ─▶ undone | rollbackIncomplete(.undo)
///         │   ▲  │                       └──▶ completed   (undo refused: state changed since)
///         ▼   │  ├──▶ cancelling ─▶ rollingBack(.cancelled | .failed) ─▶ cancelled | failed | rollbackIncomplete
///      waiting   └──▶ rollingBack(.cancelled | .failed) ─▶ cancelled | failed | rollbackIncomplete
///  queued | waiting ──▶ cancelled   (cancelled before the body ran: nothing to revert)
/// ```
///
/// A flow that was cancelled but whose current step then failed with a real error (not
/// `CancellationError`) ends `failed` with that error: a failure is never hidden as a cancel.
public enum FlowStatus: Sendable, CustomStringConvertible {
    /// Submitted; has not asked for the lock yet.
    case queued
    /// In the lock's queue behind other flows. Cancelling leaves the queue at once.
    case waiting
    /// Holds the lock; its body is running.
    case running
    /// Cancel was requested; the current step is finishing before the rollback starts.
    case cancelling
    /// Registered reverts are running in reverse order.
    case rollingBack(RollbackCause)
    /// The body returned; the flow's reverts are kept for ``TaskFlow/undo()`` while it is in the
    /// manager's undo history.
    case completed
    /// Cancelled, and every registered revert ran.
    case cancelled
    /// A step threw, and every registered revert ran.
    case failed(any Error)
    /// Some reverts threw. Every other revert still ran; each failure is listed.
    case rollbackIncomplete(RollbackCause, [RevertFailure])
    /// ``TaskFlow/undo()`` is waiting for the write lock or running the reverts.
    case undoing
    /// Undone: every revert ran after the flow had completed.
    case undone

    /// The state without its payload.
    public var phase: FlowPhase {
        switch self {
        case .queued: .queued
        case .waiting: .waiting
        case .running: .running
        case .cancelling: .cancelling
        case .rollingBack: .rollingBack
        case .completed: .completed
        case .cancelled: .cancelled
        case .failed: .failed
        case .rollbackIncomplete: .rollbackIncomplete
        case .undoing: .undoing
        case .undone: .undone
        }
    }

    /// True once the flow will change no more unless it is undone.
    public var isFinished: Bool { phase.isFinished }

    /// True while the body has not started or is running, so a cancel still has an effect.
    var acceptsCancel: Bool { phase.acceptsCancel }

    /// The phase's name, stable for logs and tests ("rolling back", "rollback incomplete").
    public var name: String { phase.name }

    /// Why it failed: the error's description for ``failed(_:)``, every failed revert for
    /// ``rollbackIncomplete(_:_:)``; nil in every other state.
    public var failureMessage: String? {
        switch self {
        case .failed(let error): String(describing: error)
        case .rollbackIncomplete(_, let failures): failures.map(\.description).joined(separator: "; ")
        default: nil
        }
    }

    /// The name, with the error or the failed reverts where there are some.
    public var description: String {
        failureMessage.map { "\(name): \($0)" } ?? name
    }
}
