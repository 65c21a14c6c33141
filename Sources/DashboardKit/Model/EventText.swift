import TaskFlow

/// The human-readable text of engine events: the one renderer of events as sentences, shared by
/// the event log and the headless text output.
package enum EventText {
    /// The line for `event`, or nil for a step that completed (the next step's start says it).
    /// Progress gets a line (`#1 "Sync" step 3 "Push" 40%`), which the event log leaves out.
    /// `flowTitle` and `stepTitle` look up titles; what they don't know is shown by id only.
    package static func line(
        for event: FlowEvent, flowTitle: (FlowID) -> String?, stepTitle: (FlowID, StepID) -> String?
    ) -> LogLine? {
        let flow = titled(event.flowID.description, flowTitle(event.flowID))
        func step(_ id: StepID) -> String { titled(id.description, stepTitle(event.flowID, id)) }
        switch event {
        case .flowQueued(let info):
            return LogLine(text: "\(flow) queued (\(info.access.rawValue))", level: .info)
        case .statusChanged(_, let status):
            return LogLine(text: "\(flow) \(status)", level: level(of: status.phase))
        case .stepStarted(_, let step):
            return LogLine(text: "\(flow) ▸ \(step.title) (\(step.kind.rawValue))", level: .info)
        case .stepFinished(_, _, .completed):
            return nil
        case .stepFinished(_, let id, .cancelled):
            return LogLine(text: "\(flow) \(step(id)) cancelled", level: .warning)
        case .stepFinished(_, let id, .failed(let message)):
            return LogLine(text: "\(flow) \(step(id)) failed: \(message)", level: .error)
        case .progress(_, let id, let fraction):
            return LogLine(text: "\(flow) \(step(id)) \(Int(fraction * 100))%", level: .info)
        case .stepRetrying(_, let retry):
            return LogLine(text: "\(flow) \"\(retry.title)\" attempt \(retry.nextAttempt)/\(retry.maxAttempts) in \(retry.delay.delayText)", level: .warning)
        case .stepReverting(_, let info):
            return LogLine(text: "\(flow) ◂ reverting \(titled(info.id.description, info.title))", level: .warning)
        case .stepReverted(_, let info):
            return LogLine(text: "\(flow) ◂ reverted \(titled(info.id.description, info.title))", level: .warning)
        case .revertFailed(_, let info, let message):
            return LogLine(text: "\(flow) revert of \(titled(info.id.description, info.title)) failed: \(message)", level: .error)
        case .undoExpired:
            return LogLine(text: "\(flow) left the undo history: it can no longer be undone", level: .info)
        case .lock(let change):
            let mode = change.mode.text { titled($0.description, flowTitle($0)) }
            return LogLine(text: "lock: \(flow) \(change.change.verb) → \(mode), \(change.waiting) waiting", level: .info)
        }
    }

    private static func titled(_ id: String, _ title: String?) -> String {
        title.map { "\(id) \"\($0)\"" } ?? id
    }

    private static func level(of phase: FlowPhase) -> LogLevel {
        switch phase.category {
        case .failed: .error
        case .rollingBack, .cancelled, .undone: .warning
        case .waiting, .running, .completed: .info
        }
    }
}

extension LockEvent.Change {
    /// The past-tense verb for logs ("admitted").
    var verb: String {
        switch self {
        case .enqueued: "queued"
        case .admitted: "admitted"
        case .released: "released"
        case .withdrawn: "withdrawn"
        }
    }
}
