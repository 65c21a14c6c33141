import TaskFlow

/// The human-readable text of engine events, shared by the event log and the headless output.
public enum EventText {
    /// A described event: the text and how much it matters.
    public struct Line: Sendable, Hashable {
        /// The text, e.g. `#3 "Sync" step "Push" failed: HTTP 409`.
        public let text: String
        /// Its level.
        public let level: LogLevel
    }

    /// The line for `event`, or nil for events too frequent to log (progress).
    /// `flowTitle` and `stepTitle` look up titles; what they don't know is shown by id only.
    public static func line(
        for event: FlowEvent, flowTitle: (FlowID) -> String?, stepTitle: (FlowID, StepID) -> String?
    ) -> Line? {
        let flow = titled(event.flowID.description, flowTitle(event.flowID))
        func step(_ id: StepID) -> String { titled(id.description, stepTitle(event.flowID, id)) }
        switch event {
        case .flowQueued(let info):
            return Line(text: "\(flow) queued (\(info.access.rawValue))", level: .info)
        case .statusChanged(_, let status):
            return Line(text: "\(flow) \(status)", level: level(of: FlowPhase(status)))
        case .stepStarted(_, let step):
            return Line(text: "\(flow) ▸ \(step.title) (\(step.kind.rawValue))", level: .info)
        case .stepFinished(_, _, .completed):
            return nil
        case .stepFinished(_, let id, .cancelled):
            return Line(text: "\(flow) \(step(id)) stopped early", level: .warning)
        case .stepFinished(_, let id, .failed(let message)):
            return Line(text: "\(flow) \(step(id)) failed: \(message)", level: .error)
        case .progress:
            return nil
        case .stepReverting(_, let id):
            return Line(text: "\(flow) ◂ reverting \(step(id))", level: .warning)
        case .stepReverted(_, let id):
            return Line(text: "\(flow) ◂ reverted \(step(id))", level: .warning)
        case .revertFailed(_, let id, let message):
            return Line(text: "\(flow) revert of \(step(id)) failed: \(message)", level: .error)
        case .lock(let change):
            let mode = switch change.mode {
            case .write(let holder): "WRITE " + titled(holder.description, flowTitle(holder))
            default: change.mode.description
            }
            return Line(text: "lock: \(flow) \(change.change.verb) → \(mode), \(change.waiting) waiting", level: .info)
        }
    }

    private static func titled(_ id: String, _ title: String?) -> String {
        title.map { "\(id) \"\($0)\"" } ?? id
    }

    private static func level(of phase: FlowPhase) -> LogLevel {
        switch phase.category {
        case .failed: .error
        case .rollingBack, .cancelled, .undone: .warning
        case .waiting, .running, .done: .info
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
