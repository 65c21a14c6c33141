import DequeModule
import TaskFlow

/// Everything the dashboard derives from the engine's events: flows, lock and log. The part of
/// the model that ``DashboardModel/paused`` freezes.
///
/// A monitor runs for days, so the board keeps every live flow but only a bounded history of
/// finished ones: once more than ``historyLimit`` flows have finished, those that finished
/// first are dropped (in batches, so that dropping costs O(1) per flow amortised; between two
/// batches up to ``historyLimit`` + ``dropBatch`` finished flows are shown, the batch growing with
/// the rows). ``counts`` and
/// ``droppedFlows`` still account for every flow ever seen.
package struct FlowBoard: Sendable, Hashable {
    /// The live flows and the most recently finished ones, by submission order.
    package private(set) var flows: [FlowRow] = []
    /// The lock.
    package private(set) var lock = LockBoard()
    /// The event log.
    package private(set) var log: EventLog
    /// How many flows are in each category, every flow seen counted (dropped ones included).
    package private(set) var counts: [PhaseCategory: Int] = [:]
    /// How many finished flows were dropped from ``flows`` to keep the history bounded.
    package private(set) var droppedFlows = 0
    /// Whether the engine's undo history is full (the undo-history warning).
    package private(set) var undoHistory = UndoHistoryWatch()
    /// The flows that can still change without an undo, kept as they change so that what looks
    /// at them each frame (the stalled-step warning) does not walk every flow kept: with 100,000
    /// finished flows listed, that walk was most of a frame.
    package private(set) var activeIDs: Set<FlowID> = []
    /// The flows with a revert that failed (a step marked so, or a rollback incomplete), kept
    /// as they change for the failed-revert warning, for the same reason.
    package private(set) var revertFailureIDs: Set<FlowID> = []
    /// How many finished flows ``flows`` keeps at least (the newest ones).
    package let historyLimit: Int
    private var indexByID: [FlowID: Int] = [:]
    /// Finished flows in the order they finished, with the time, so that an entry left behind
    /// by a flow that an undo made active again is recognised and skipped.
    private var finishOrder: Deque<Finish> = []

    private struct Finish: Sendable, Hashable {
        let id: FlowID
        let at: Duration
    }

    /// The default ``historyLimit``: enough to scroll back through a busy hour, small enough
    /// that the board stays a few megabytes.
    package static let defaultHistoryLimit = 1000

    /// The ``historyLimit``s a board takes (`--history`): beyond a million finished flows the
    /// board would hold gigabytes, and the bound keeps ``historyLimit`` + ``dropBatch`` far from
    /// overflowing.
    package static let historyLimits = 1...1_000_000

    /// An empty board whose log keeps `logCapacity` lines and that keeps at least the last
    /// `historyLimit` finished flows, brought within ``historyLimits``.
    package init(logCapacity: Int = 1000, historyLimit: Int = FlowBoard.defaultHistoryLimit) {
        log = EventLog(capacity: logCapacity)
        self.historyLimit = min(max(historyLimit, Self.historyLimits.lowerBound), Self.historyLimits.upperBound)
    }

    /// How many finished flows beyond ``historyLimit`` wait before they are dropped together.
    /// A drop rewrites every row, so it waits for an eighth of the limit, or for a quarter of the
    /// rows when they are more: with 100,000 flows rolling back at once, batches of a fixed size
    /// made the drops quadratic (and the session's release of their handles with them).
    var dropBatch: Int { max(historyLimit / 8, 16, flows.count / 4) }

    /// The row of a flow, if it was seen and not dropped.
    package func flow(_ id: FlowID) -> FlowRow? {
        indexByID[id].map { flows[$0] }
    }

    /// True while some flow can still change without an undo.
    package var hasActiveFlows: Bool { activeFlows > 0 }

    /// How many flows can still change without an undo: the header's waiting, running and
    /// rolling back counts together.
    package var activeFlows: Int {
        PhaseCategory.allCases.reduce(0) { $0 + ($1.isActive ? counts[$1, default: 0] : 0) }
    }

    /// Applies one event that happened at `time`. Pure: the same events give the same board.
    package mutating func apply(_ event: FlowEvent, at time: Duration) {
        undoHistory.record(event, before: flow(event.flowID))
        switch event {
        case .flowQueued(let info):
            // Known already from a snapshot (see ``adopt(_:at:origin:)``).
            guard flow(info.id) == nil else { return }
            addRow(FlowRow(info: info, queuedAt: time))
        case .statusChanged(let id, let status):
            let phase = status.phase
            if let before = flow(id)?.phase {
                counts[before.category, default: 0] -= 1
                counts[phase.category, default: 0] += 1
            }
            updateRow(id) { row in
                row.phase = phase
                row.failureMessage = status.failureMessage
                row.finishedAt = status.isFinished ? time : nil
                if status.isFinished { row.currentStep = nil }
                // A cancel during a retry's backoff ends the wait: no attempt comes.
                if phase != .running { row.pendingRetry = nil }
            }
            if indexByID[id] != nil { track(id, phase) }
            if status.isFinished { finished(id, at: time) }
        case .stepStarted(let id, let step):
            updateRow(id) { $0.start(step, at: time) }
        case .stepFinished(let id, let step, let outcome):
            updateRow(id) { row in
                row.updateStep(step) { node in
                    node.status = StepStatus(outcome)
                    node.endedAt = time
                    node.progress = nil
                }
                if row.currentStep == step { row.currentStep = row.steps.last { $0.status == .running }?.info.id }
            }
        case .progress(let id, let step, let fraction):
            updateRow(id) { row in
                row.updateStep(step) { node in
                    node.progress = fraction
                    node.progressAt = time
                }
            }
        case .stepReverting(let id, let step):
            updateStep(id, step.id, to: .reverting)
        case .stepReverted(let id, let step):
            updateStep(id, step.id, to: .reverted)
        case .revertFailed(let id, let step, let message):
            if indexByID[id] != nil { revertFailureIDs.insert(id) }
            updateStep(id, step.id, to: .revertFailed(message))
        case .lock(let change):
            lock.apply(change, at: time)
        case .undoExpired(let id):
            updateRow(id) { $0.undoExpired = true }
        case .stepRetrying(let id, let retry):
            updateRow(id) { $0.pendingRetry = PendingRetry(retry: retry, nextAt: time + retry.delay) }
        }
        // Progress comes too often for the log; the step's bar shows it.
        if case .progress = event { return }
        let line = EventText.line(
            for: event, flowTitle: { flow($0)?.info.title }, stepTitle: { flow($0)?.step($1)?.info.title })
        if let line {
            log.append(LogEntry(time: time, level: line.level, text: line.text, subject: .flow(event.flowID)))
        }
    }

    /// Takes in the flows and the lock a manager's snapshot shows, for a dashboard attaching
    /// to a running program: each flow not seen yet with its status and its whole step tree
    /// (statuses and progress), its log lines at `time`. With `origin`, the instant this board's
    /// clock counts from, each flow and step takes the times the snapshot tells (see
    /// ``FlowRow/place(_:origin:)``); without it, or where the snapshot tells none, it counts
    /// from `time`, as if it had just been queued. The events that follow (the stream was
    /// subscribed before the snapshot was taken) may repeat what the snapshot shows; applying
    /// them again leaves the board as the engine is.
    package mutating func adopt(_ snapshot: ManagerSnapshot, at time: Duration, origin: ContinuousClock.Instant? = nil) {
        for flow in snapshot.flows where self.flow(flow.info.id) == nil {
            apply(.flowQueued(flow.info), at: time)
            replay(flow, at: time, origin: origin)
        }
        lock.adopt(snapshot.lock, at: time, waitingSince: Self.submissions(in: snapshot, origin: origin))
    }

    /// When each flow of `snapshot` was submitted, on the board's clock whose zero is `origin`:
    /// those whose snapshot tells. A flow waits for the lock from its submission.
    private static func submissions(in snapshot: ManagerSnapshot, origin: ContinuousClock.Instant?) -> [FlowID: Duration] {
        guard let origin else { return [:] }
        return Dictionary(snapshot.flows.compactMap { flow in flow.submitted.map { (flow.info.id, $0 - origin) } }) { first, _ in first }
    }

    /// Brings a listed flow's row to what `flow` shows: its status, its steps, and with `origin`
    /// the times it tells.
    private mutating func replay(_ flow: FlowSnapshot, at time: Duration, origin: ContinuousClock.Instant?) {
        let id = flow.info.id
        apply(.statusChanged(id, flow.status), at: time)
        for step in flow.steps {
            for event in Self.events(replaying: step, of: id) { apply(event, at: time) }
        }
        if let origin { updateRow(id) { $0.place(flow, origin: origin) } }
    }

    /// Replaces what the board knows of the live flows with what `snapshot` shows, for a watcher
    /// that missed events (a console client that fell behind): the lock becomes the snapshot's;
    /// each flow in it takes its status and step tree (a flow the board never saw is added, as
    /// ``adopt(_:at:origin:)`` adds it); an active flow gone from it ended meanwhile: completed when the
    /// snapshot lists it as undoable, else its end was among the missed events and it leaves the
    /// board (its outcome is unknown, and a guessed one would be a lie). Finished flows stay.
    /// The log keeps what it said: replaying the snapshot adds no lines. `origin` places the
    /// snapshot's times, as for ``adopt(_:at:origin:)``. Returns the flows that left.
    package mutating func resync(_ snapshot: ManagerSnapshot, at time: Duration, origin: ContinuousClock.Instant? = nil) -> [FlowID] {
        let log = self.log
        defer { self.log = log }
        let live = Set(snapshot.flows.map(\.info.id))
        let undoable = Set(snapshot.undoable.map(\.id))
        let gone = flows.filter { $0.phase.isActive && !live.contains($0.info.id) }.map(\.info.id)
        for id in gone where undoable.contains(id) { apply(.statusChanged(id, .completed), at: time) }
        let left = gone.filter { !undoable.contains($0) }
        remove(Set(left))
        for flow in snapshot.flows {
            if let index = indexByID[flow.info.id] {
                // Known: it starts again from its submission, then takes the snapshot's state.
                counts[flows[index].phase.category, default: 0] -= 1
                flows[index] = FlowRow(info: flow.info, queuedAt: flows[index].queuedAt)
                counts[FlowPhase.queued.category, default: 0] += 1
            } else {
                apply(.flowQueued(flow.info), at: time)
            }
            replay(flow, at: time, origin: origin)
        }
        lock = LockBoard(waits: lock.waits)
        lock.adopt(snapshot.lock, at: time, waitingSince: Self.submissions(in: snapshot, origin: origin))
        return left
    }

    /// Takes `ids` off the board and out of its counts: flows whose end the board never heard of.
    private mutating func remove(_ ids: Set<FlowID>) {
        guard !ids.isEmpty else { return }
        for row in flows where ids.contains(row.info.id) { counts[row.phase.category, default: 0] -= 1 }
        flows.removeAll { ids.contains($0.info.id) }
        indexByID = Dictionary(uniqueKeysWithValues: flows.enumerated().map { ($1.info.id, $0) })
        untrack(ids)
    }

    /// Keeps ``activeIDs`` and ``revertFailureIDs`` up to date with `id`'s new `phase`.
    private mutating func track(_ id: FlowID, _ phase: FlowPhase) {
        if phase.isActive { activeIDs.insert(id) } else { activeIDs.remove(id) }
        if phase == .rollbackIncomplete { revertFailureIDs.insert(id) }
    }

    /// Forgets `ids`, which left the board.
    private mutating func untrack(_ ids: Set<FlowID>) {
        activeIDs.subtract(ids)
        revertFailureIDs.subtract(ids)
    }

    /// The events that bring a new step to where `step` is.
    private static func events(replaying step: StepSnapshot, of flow: FlowID) -> [FlowEvent] {
        let started = FlowEvent.stepStarted(flow, step.info)
        let applied = FlowEvent.stepFinished(flow, step.info.id, .completed)
        switch step.status {
        case .running: return [started] + (step.progress.map { [.progress(flow, step.info.id, $0)] } ?? [])
        case .completed: return [started, applied]
        case .cancelled: return [started, .stepFinished(flow, step.info.id, .cancelled)]
        case .failed(let message): return [started, .stepFinished(flow, step.info.id, .failed(message))]
        case .reverting: return [started, applied, .stepReverting(flow, step.info)]
        case .reverted: return [started, applied, .stepReverting(flow, step.info), .stepReverted(flow, step.info)]
        case .revertFailed(let message): return [started, applied, .stepReverting(flow, step.info), .revertFailed(flow, step.info, message)]
        }
    }

    /// Adds a line that is not an engine event (a key's effect, an undo error, a queued job's
    /// event), about `subject` if it is about one.
    package mutating func note(_ text: String, level: LogLevel, at time: Duration, subject: LogSubject? = nil) {
        log.append(LogEntry(time: time, level: level, text: text, subject: subject))
    }

    /// Adds a row in its place by id, which is submission order: almost always at the end. A
    /// flow can be announced after later ones when its events come from another stream than
    /// the manager's (the start-up's boot row, #0, beside the demo's first flows); it goes
    /// before them all the same, so the list, and what Home selects, do not depend on which
    /// stream was read first.
    private mutating func addRow(_ row: FlowRow) {
        let id = row.info.id
        if let last = flows.last, last.info.id > id {
            let place = flows.firstIndex { $0.info.id > id } ?? flows.endIndex
            flows.insert(row, at: place)
            for index in place..<flows.endIndex { indexByID[flows[index].info.id] = index }
        } else {
            indexByID[id] = flows.endIndex
            flows.append(row)
        }
        counts[row.phase.category, default: 0] += 1
        track(id, row.phase)
    }

    /// Remembers that `id` finished, and drops the oldest finished flows once a batch of them
    /// is beyond the limit.
    private mutating func finished(_ id: FlowID, at time: Duration) {
        finishOrder.append(Finish(id: id, at: time))
        guard finishOrder.count > historyLimit + dropBatch else { return }
        var dropped = Set<FlowID>()
        while finishOrder.count > historyLimit, let entry = finishOrder.popFirst() {
            // A flow undone since it finished is active again (or finished later, with a newer
            // entry further back): it is not this entry's to drop.
            guard let row = flow(entry.id), row.finishedAt == entry.at, !row.phase.isActive else { continue }
            dropped.insert(entry.id)
        }
        guard !dropped.isEmpty else { return }
        flows.removeAll { dropped.contains($0.info.id) }
        indexByID = Dictionary(uniqueKeysWithValues: flows.enumerated().map { ($1.info.id, $0) })
        untrack(dropped)
        droppedFlows += dropped.count
    }

    private mutating func updateRow(_ id: FlowID, _ change: (inout FlowRow) -> Void) {
        guard let index = indexByID[id] else { return }
        change(&flows[index])
    }

    private mutating func updateStep(_ id: FlowID, _ step: StepID, to status: StepStatus) {
        updateRow(id) { row in row.updateStep(step) { $0.status = status } }
    }
}
