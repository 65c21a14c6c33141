import CoreMetrics

/// How a flow ended, as the `outcome` dimension of `taskflow.flows` names it.
enum FlowOutcome: String, CaseIterable, Sendable {
    case completed, cancelled, failed
    case rollbackIncomplete = "rollback_incomplete"
    case undone

    /// The outcome of a final status; nil for a status that is not final.
    init?(_ status: FlowStatus) {
        switch status {
        case .completed: self = .completed
        case .cancelled: self = .cancelled
        case .failed: self = .failed
        case .rollbackIncomplete: self = .rollbackIncomplete
        case .undone: self = .undone
        case .queued, .waiting, .running, .cancelling, .rollingBack, .undoing: return nil
        }
    }
}

/// The metrics of the flows of one access (DESIGN §9), made once per manager and factory:
///
/// - `taskflow.flows` (counter; `access`, `outcome`): one per flow ending — completed,
///   cancelled, failed, rollback_incomplete — and one per undo (undone, or
///   rollback_incomplete when one of its reverts threw).
/// - `taskflow.flow.duration` (timer; `access`): from submission to the flow's final status,
///   its wait for the lock and any rollback included; not recorded for undos.
/// - `taskflow.lock.wait` (timer; `access`): from asking for the lock to getting it, for flows
///   and undos that got it.
struct FlowMetrics: Sendable {
    let outcomes: [FlowOutcome: Counter]
    let duration: CoreMetrics.Timer
    let lockWait: CoreMetrics.Timer

    init(access: FlowAccess, factory: any MetricsFactory) {
        let dimension = ("access", access.rawValue)
        outcomes = Dictionary(
            uniqueKeysWithValues: FlowOutcome.allCases.map { outcome in
                (outcome, Counter(label: "taskflow.flows", dimensions: [dimension, ("outcome", outcome.rawValue)], factory: factory))
            })
        duration = CoreMetrics.Timer(label: "taskflow.flow.duration", dimensions: [dimension], factory: factory)
        lockWait = CoreMetrics.Timer(label: "taskflow.lock.wait", dimensions: [dimension], factory: factory)
    }

    /// Records the wait for the lock that began at `asked`, now that the lock was given.
    func lockGiven(askedAt asked: ContinuousClock.Instant) {
        lockWait.record(since: asked)
    }
}

extension CoreMetrics.Timer {
    /// Records the time from `start` to now.
    func record(since start: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
