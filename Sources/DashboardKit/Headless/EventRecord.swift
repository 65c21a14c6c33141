import TaskFlow

/// One engine event as a flat JSON object, for `--json` (JSON Lines). Absent fields are left
/// out, so each line carries only what its event says.
package struct EventRecord: Codable, Sendable, Hashable {
    /// Seconds since the dashboard started.
    package var time: Double
    /// The event's case name: `flowQueued`, `statusChanged`, `stepStarted`, ...
    package var event: String
    /// The flow's number.
    package var flow: Int
    /// The flow's title.
    package var title: String?
    /// `read` or `write` (flowQueued).
    package var access: String?
    /// The new status's name (statusChanged).
    package var status: String?
    /// An error's description (failures).
    package var message: String?
    /// The step's number within its flow.
    package var step: Int?
    /// The step's title.
    package var stepTitle: String?
    /// The number of the step it runs inside (stepStarted).
    package var parent: Int?
    /// The step's kind (stepStarted).
    package var kind: String?
    /// `completed`, `cancelled` or `failed` (stepFinished).
    package var outcome: String?
    /// 0...1 (progress).
    package var progress: Double?
    /// `queued`, `admitted`, `released` or `withdrawn` (lock).
    package var lockChange: String?
    /// The lock's mode after the change (lock).
    package var lockMode: String?
    /// How many flows wait for the lock after the change (lock).
    package var waiting: Int?
    /// The attempt that comes next (stepRetrying; `maxAttempts` in all).
    package var attempt: Int?
    /// How many attempts there can be (stepRetrying).
    package var maxAttempts: Int?
    /// Seconds until the next attempt (stepRetrying).
    package var delay: Double?

    /// The record of `event` at `time`; `flowTitles`/`stepTitles` name what the event only
    /// identifies.
    package init(
        _ event: FlowEvent, at time: Duration,
        flowTitles: (FlowID) -> String?, stepTitles: (FlowID, StepID) -> String?
    ) {
        self.time = time.recordSeconds
        flow = event.flowID.rawValue
        title = flowTitles(event.flowID)
        switch event {
        case .flowQueued(let info):
            self.event = "flowQueued"
            access = info.access.rawValue
        case .statusChanged(_, let status):
            self.event = "statusChanged"
            self.status = status.name
            message = status.failureMessage
        case .stepStarted(_, let info):
            self.event = "stepStarted"
            (step, stepTitle, parent, kind) = (info.id.rawValue, info.title, info.parent?.rawValue, info.kind.rawValue)
        case .stepFinished(let id, let stepID, let result):
            self.event = "stepFinished"
            (step, stepTitle) = (stepID.rawValue, stepTitles(id, stepID))
            switch result {
            case .completed: outcome = "completed"
            case .cancelled: outcome = "cancelled"
            case .failed(let text): (outcome, message) = ("failed", text)
            }
        case .progress(let id, let stepID, let fraction):
            self.event = "progress"
            (step, stepTitle, progress) = (stepID.rawValue, stepTitles(id, stepID), fraction)
        case .stepReverting(_, let info):
            self.event = "stepReverting"
            (step, stepTitle) = (info.id.rawValue, info.title)
        case .stepReverted(_, let info):
            self.event = "stepReverted"
            (step, stepTitle) = (info.id.rawValue, info.title)
        case .revertFailed(_, let info, let text):
            self.event = "revertFailed"
            (step, stepTitle, message) = (info.id.rawValue, info.title, text)
        case .undoExpired:
            self.event = "undoExpired"
        case .stepRetrying(_, let retry):
            self.event = "stepRetrying"
            (stepTitle, attempt, maxAttempts, delay, message) = (retry.title, retry.nextAttempt, retry.maxAttempts, retry.delay.seconds, retry.error)
        case .lock(let change):
            self.event = "lock"
            (lockChange, lockMode, waiting) = (change.change.verb, change.mode.description, change.waiting)
        }
    }
}
