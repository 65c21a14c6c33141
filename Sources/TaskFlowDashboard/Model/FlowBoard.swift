import TaskFlow

/// Everything the dashboard derives from the engine's events: flows, lock and log. The part of
/// the model that ``DashboardModel/paused`` freezes.
public struct FlowBoard: Sendable, Hashable {
    /// Every flow seen, by submission order.
    public private(set) var flows: [FlowRow] = []
    /// The lock.
    public private(set) var lock = LockBoard()
    /// The event log.
    public private(set) var log: EventLog
    private var indexByID: [FlowID: Int] = [:]

    /// An empty board whose log keeps `logCapacity` lines.
    public init(logCapacity: Int = 1000) {
        log = EventLog(capacity: logCapacity)
    }

    /// The row of a flow, if it was seen.
    public func flow(_ id: FlowID) -> FlowRow? {
        indexByID[id].map { flows[$0] }
    }

    /// How many flows are in each category, for the header.
    public var counts: [PhaseCategory: Int] {
        flows.reduce(into: [:]) { counts, row in counts[row.phase.category, default: 0] += 1 }
    }

    /// Applies one event that happened at `time`. Pure: the same events give the same board.
    public mutating func apply(_ event: FlowEvent, at time: Duration) {
        switch event {
        case .flowQueued(let info):
            addRow(FlowRow(info: info, queuedAt: time))
        case .statusChanged(let id, let status):
            let phase = FlowPhase(status)
            updateRow(id) { row in
                row.phase = phase
                row.finishedAt = status.isFinished ? time : nil
                if status.isFinished { row.currentStep = nil }
            }
        case .stepStarted(let id, let step):
            updateRow(id) { $0.start(step, at: time) }
        case .stepFinished(let id, let step, let outcome):
            updateRow(id) { row in
                row.updateStep(step) { node in
                    node.phase = StepPhase(outcome)
                    node.endedAt = time
                    node.progress = nil
                }
                if row.currentStep == step { row.currentStep = row.steps.last { $0.phase == .running }?.info.id }
            }
        case .progress(let id, let step, let fraction):
            updateRow(id) { $0.updateStep(step) { $0.progress = fraction } }
        case .stepReverting(let id, let step):
            updateStep(id, step, to: .reverting)
        case .stepReverted(let id, let step):
            updateStep(id, step, to: .reverted)
        case .revertFailed(let id, let step, let message):
            updateStep(id, step, to: .revertFailed(message))
        case .lock(let change):
            lock.apply(change)
        }
        let line = EventText.line(
            for: event, flowTitle: { flow($0)?.info.title }, stepTitle: { flow($0)?.step($1)?.info.title })
        if let line {
            log.append(LogEntry(time: time, level: line.level, text: line.text))
        }
    }

    /// Adds a line that is not an engine event (a key's effect, an undo error).
    public mutating func note(_ text: String, level: LogLevel, at time: Duration) {
        log.append(LogEntry(time: time, level: level, text: text))
    }

    private mutating func addRow(_ row: FlowRow) {
        indexByID[row.info.id] = flows.endIndex
        flows.append(row)
    }

    private mutating func updateRow(_ id: FlowID, _ change: (inout FlowRow) -> Void) {
        guard let index = indexByID[id] else { return }
        change(&flows[index])
    }

    private mutating func updateStep(_ id: FlowID, _ step: StepID, to phase: StepPhase) {
        updateRow(id) { row in row.updateStep(step) { $0.phase = phase } }
    }
}

extension StepPhase {
    /// The phase a step's apply ended in.
    init(_ outcome: StepOutcome) {
        switch outcome {
        case .completed: self = .done
        case .cancelled: self = .cancelled
        case .failed(let message): self = .failed(message)
        }
    }
}
