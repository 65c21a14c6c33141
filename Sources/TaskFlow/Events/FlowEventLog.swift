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

    /// Logs `event`; `flow` is the flow it is about, where the emitter has it at hand.
    func record(_ event: FlowEvent, flow: FlowInfo?) {
        guard let record = Self.describe(event), logger.logLevel <= record.level else { return }
        var metadata: Logger.Metadata = ["taskflow.flow.id": "\(event.flowID.rawValue)"]
        if let flow {
            metadata["taskflow.flow.title"] = "\(flow.title.escapingControlCharacters)"
            metadata["taskflow.flow.access"] = "\(flow.access.rawValue)"
        }
        if let step = record.step { metadata["taskflow.step.id"] = "\(step.rawValue)" }
        if let title = record.stepTitle { metadata["taskflow.step.title"] = "\(title.escapingControlCharacters)" }
        logger.log(level: record.level, "\(record.message.escapingControlCharacters)", metadata: metadata)
    }

    /// What one event's record says.
    private struct Record {
        let level: Logger.Level
        let message: String
        var step: StepID? = nil
        var stepTitle: String? = nil

        init(_ level: Logger.Level, _ message: String, step: StepID? = nil, stepTitle: String? = nil) {
            (self.level, self.message, self.step, self.stepTitle) = (level, message, step, stepTitle)
        }

        init(_ level: Logger.Level, _ message: String, _ step: StepInfo) {
            self.init(level, message, step: step.id, stepTitle: step.title)
        }
    }

    /// The record of `event`; nil for what is never logged (progress, a flood by nature; the
    /// lock's admissions, which the flows' statuses tell).
    private static func describe(_ event: FlowEvent) -> Record? {
        switch event {
        case .flowQueued: Record(.debug, "flow queued")
        case .statusChanged(_, let status): describe(status)
        case .stepStarted(_, let step): Record(.trace, "step started", step)
        case .stepFinished(_, let step, let outcome): Record(.debug, "step \(outcome.logText)", step: step)
        case .progress, .lock: nil
        case .stepRetrying(_, let retry):
            Record(
                .info, "step retrying: attempt \(retry.nextAttempt)/\(retry.maxAttempts) in \(retry.delay): \(retry.error)",
                stepTitle: retry.title)
        case .stepReverting(_, let step): Record(.trace, "revert started", step)
        case .stepReverted(_, let step): Record(.debug, "step reverted", step)
        case .revertFailed(_, let step, let message): Record(.error, "revert failed: \(message)", step)
        case .undoExpired: Record(.debug, "flow left the undo history")
        }
    }

    private static func describe(_ status: FlowStatus) -> Record {
        let level: Logger.Level =
            switch status.phase {
            case .rollbackIncomplete: .error
            case .failed: .warning
            case .cancelled, .undone: .info
            case .queued, .waiting, .running, .cancelling, .rollingBack, .completed, .undoing: .debug
            }
        return Record(level, "flow \(status)")
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
