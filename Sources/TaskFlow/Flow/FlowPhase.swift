/// Where a flow is in its lifecycle, without the payloads ``FlowStatus`` carries: `Hashable`,
/// so observers can compare, count and store it, and the one place that names each state.
///
/// Every surface that shows a flow's state (the dashboard, its event log, headless text and
/// JSON output, the README) uses ``name``.
public enum FlowPhase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Submitted; has not asked for the lock yet.
    case queued
    /// In the lock's queue behind other flows.
    case waiting
    /// Holds the lock; its body is running.
    case running
    /// Cancel was requested; the current step is finishing before the rollback starts.
    case cancelling
    /// Registered reverts are running in reverse order after a cancel or a failure.
    case rollingBack
    /// The body returned.
    case completed
    /// Cancelled, and every registered revert ran.
    case cancelled
    /// A step threw, and every registered revert ran.
    case failed
    /// Some reverts threw; every other revert still ran.
    case rollbackIncomplete
    /// An undo is waiting for the write lock or running the reverts.
    case undoing
    /// Undone: every revert ran after the flow had completed.
    case undone

    /// The state's name in lowercase words: "queued", "rolling back", "rollback incomplete".
    public var name: String {
        switch self {
        case .rollingBack: "rolling back"
        case .rollbackIncomplete: "rollback incomplete"
        default: rawValue
        }
    }

    /// ``name``.
    public var description: String { name }

    /// True once the flow will change no more unless it is undone.
    public var isFinished: Bool {
        switch self {
        case .completed, .cancelled, .failed, .rollbackIncomplete, .undone: true
        case .queued, .waiting, .running, .cancelling, .rollingBack, .undoing: false
        }
    }

    /// True while the body has not started or is running, so a cancel still has an effect.
    public var acceptsCancel: Bool {
        switch self {
        case .queued, .waiting, .running: true
        default: false
        }
    }
}
