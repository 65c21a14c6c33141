import Logging
import TaskFlowSupport

/// A manager's events as swift-log records, at the levels a server's operator expects:
///
/// | event                                   | level     |
/// |-----------------------------------------|-----------|
/// | revert failed, rollback incomplete      | `error`   |
/// | flow failed (rolled back cleanly)       | `warning` |
/// | flow cancelled or undone, step retried  | `info`    |
/// | flow queued/running/completed, steps    | `debug`   |
/// | step started, revert started            | `trace`   |
///
/// A failed flow is a `warning`, not an `error`: nothing is left half-applied and its submitter
/// gets the error from ``TaskFlow/value``; a rollback that could not finish is an `error`,
/// because the state may now be half-changed and a person has to look. Each record carries
/// `taskflow.flow.id` (and, where the event knows it, the flow's title and access and the step's
/// title). Titles and messages come from the program and its errors: they are escaped, so a
/// newline in one cannot forge a log line.
struct FlowEventLog: Sendable {
    let logger: Logger

    /// The log of `logger`, or nil when it is swift-log's no-op handler: then the engine skips
    /// logging altogether and stays as cheap as without it.
    static func of(_ logger: Logger) -> FlowEventLog? {
        logger.handler is SwiftLogNoOpLogHandler ? nil : FlowEventLog(logger: logger)
    }

    /// Logs `event`; `flow` is the flow it is about, where the emitter has it at hand. The level
    /// is decided first: a record the logger's level filters out builds no text at all.
    func record(_ event: FlowEvent, flow: FlowInfo?) {
        guard let level = Self.level(of: event), logger.logLevel <= level else { return }
        let record = Self.describe(event)
        var metadata: Logger.Metadata = ["taskflow.flow.id": "\(event.flowID.rawValue)"]
        if let flow {
            metadata["taskflow.flow.title"] = "\(flow.title.escapingControlCharacters)"
            metadata["taskflow.flow.access"] = "\(flow.access.rawValue)"
        }
        if let step = record.step { metadata["taskflow.step.id"] = "\(step.rawValue)" }
        if let title = record.stepTitle { metadata["taskflow.step.title"] = "\(title.escapingControlCharacters)" }
        logger.log(level: level, "\(record.message.escapingControlCharacters)", metadata: metadata)
    }

    /// The level of `event`'s record (see the type's table); nil for what is never logged:
    /// progress, a flood by nature, and the lock's admissions, which the flows' statuses tell.
    private static func level(of event: FlowEvent) -> Logger.Level? {
        switch event {
        case .revertFailed: .error
        case .stepRetrying: .info
        case .flowQueued, .stepFinished, .stepReverted, .undoExpired: .debug
        case .stepStarted, .stepReverting: .trace
        case .progress, .lock: nil
        case .statusChanged(_, let status):
            switch status.phase {
            case .rollbackIncomplete: .error
            case .failed: .warning
            case .cancelled, .undone: .info
            case .queued, .waiting, .running, .cancelling, .rollingBack, .completed, .undoing: .debug
            }
        }
    }

    /// What one event's record says, besides the flow.
    private struct Record {
        let message: String
        var step: StepID? = nil
        var stepTitle: String? = nil

        init(_ message: String, step: StepID? = nil, stepTitle: String? = nil) {
            (self.message, self.step, self.stepTitle) = (message, step, stepTitle)
        }

        init(_ message: String, _ step: StepInfo) {
            self.init(message, step: step.id, stepTitle: step.title)
        }
    }

    /// The text of `event`'s record; only asked for events ``level(of:)`` logs.
    private static func describe(_ event: FlowEvent) -> Record {
        switch event {
        case .flowQueued: Record("flow queued")
        case .statusChanged(_, let status): Record("flow \(status)")
        case .stepStarted(_, let step): Record("step started", step)
        case .stepFinished(_, let step, let outcome): Record("step \(outcome.logText)", step: step)
        case .stepRetrying(_, let retry):
            Record(
                "step retrying: attempt \(retry.nextAttempt)/\(retry.maxAttempts) in \(retry.delay): \(retry.error)",
                stepTitle: retry.title)
        case .stepReverting(_, let step): Record("revert started", step)
        case .stepReverted(_, let step): Record("step reverted", step)
        case .revertFailed(_, let step, let message): Record("revert failed: \(message)", step)
        case .undoExpired: Record("flow left the undo history")
        case .progress, .lock: Record("\(event)")  // Never asked: level(of:) logs neither.
        }
    }
}

extension StepOutcome {
    /// "completed", "cancelled", "failed: <error>".
    fileprivate var logText: String {
        switch self {
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .failed(let message): "failed: \(message)"
        }
    }
}
