import Synchronization
import TaskFlowSupport

/// Everything the engine knows about one flow while it lives, independent of its state and
/// value types: its status (the lifecycle state machine documented on ``FlowStatus``), its
/// cancellation flag, its lock request, how it runs once the lock lets it in (it waits in the
/// lock's queue as this record, without a task: ``AdmittedFlow``), its outcome for its handle,
/// and — once completed — its undo log.
///
/// Every status change happens under `state` and is emitted there, so each flow's events are
/// in the order its status really changed.
final class FlowRecord: Sendable {
    private struct Mutable {
        var status: FlowStatus = .queued
        /// How it runs once admitted, until it is taken to run (or the flow ends without
        /// running): it holds the engine, which holds this record while it is in the undo
        /// history, so it must not outlive its use.
        var run: PendingRun?
        /// The reverts of a completed write flow, kept while it is in the undo history.
        var undoLog: UndoLog?
        /// Set once the body threw: the flow rolls back as failed whatever a cancel says, so a
        /// cancel is ignored rather than announced as `cancelling` first. (After the body
        /// returned, a cancel before completion still rolls the flow back.)
        var bodyFailed = false
        var currentStep: StepInfo?
        var progress: Double?
        /// The live flow's steps, for ``FlowSnapshot/steps``. Emptied when the flow ends, so a
        /// finished flow keeps none of it.
        var steps = LiveSteps()
        /// The progress filters of the steps that reported progress, by step: most steps never
        /// do, and carry none. Made with `init()`, here and in ``forgetSteps()``: an empty `[:]`
        /// literal runs `init(dictionaryLiteral:)` (about 60 instructions, twice per flow).
        var filters = [StepID: ProgressFilter]()
        /// A running read flow's `StateSnapshot<State>`: the state when it got the lock.
        var stateSnapshot: StateStore.Snapshot?

        /// Moves to `status`; a final one forgets the steps.
        mutating func enter(_ status: FlowStatus) {
            self.status = status
            if status.isFinished { forgetSteps() }
        }

        /// Out of line: inlined, it made ``FlowRecord/complete(keeping:)`` too large to be
        /// inlined in turn, and its closure's captures cost a dozen retains and releases per flow.
        @inline(never)
        private mutating func forgetSteps() {
            steps.removeAll()
            filters = [StepID: ProgressFilter]()
            currentStep = nil
            progress = nil
            stateSnapshot = nil
        }
    }

    let info: FlowInfo
    /// When it was submitted: what a late observer's snapshot says (``FlowSnapshot/submitted``).
    let submitted: ContinuousClock.Instant
    /// What the code that submitted the flow keeps with it for its steps to find (a durable
    /// flow's journal): nil for a plain flow. The engine never looks at it.
    let attachment: (any FlowAttachment)?
    let hub: EventHub
    /// What the flow's step retries wait their backoff on: its manager's clock.
    let clock: any TimingClock
    /// Its cancel flag, which its steps read (outside groups, directly; inside them, through
    /// their ``CancellationScope``). Set once, by the first effective ``requestCancel()``.
    private let cancelFlag = Atomic<Bool>(false)
    /// Its claim on the lock, for its run and, once completed, its undo.
    let lockRequest = LockRequest()
    /// Its metrics and span: nil unless a backend was bootstrapped when it was submitted.
    let telemetry: FlowTelemetry?
    /// Runs the flow, which holds the lock under the ticket given, to its end (lock released);
    /// returns how it ended. Given by the engine, which knows the flow's state and body.
    typealias Run = @Sendable (_ record: FlowRecord, _ ticket: Int) async -> Ending
    /// ``Run`` as the record keeps it. Why a struct: a closure returned through a generic
    /// function (the lock's `withLock`) comes out wrapped in reabstraction thunks, a heap context
    /// and two async frames more on every flow's task; a struct holding one does not.
    private struct PendingRun {
        let run: Run
    }
    /// How a run ended: the outcome for the handle, and the flows its release admitted.
    typealias Ending = (outcome: ErasedOutcome, admitted: [AdmittedFlow])
    /// What it ended with, for its handle.
    let completion = Completion()
    /// What its steps share: the state's store, its top-level reverts, and whether steps may
    /// still start.
    let run: FlowRun
    private let state: Protected<Mutable>
    private let stepCounter = Atomic<Int>(0)

    init(
        info: FlowInfo, submitted: ContinuousClock.Instant, hub: EventHub, clock: any TimingClock, store: StateStore,
        attachment: (any FlowAttachment)? = nil, telemetry: FlowTelemetry? = nil, run: @escaping Run
    ) {
        state = Protected(Mutable(run: PendingRun(run: run)))
        self.run = FlowRun(store: store)
        self.info = info
        self.submitted = submitted
        self.telemetry = telemetry
        self.attachment = attachment
        self.hub = hub
        self.clock = clock
    }

    var status: FlowStatus { state.withLock { $0.status } }

    /// Runs the flow, which holds the lock under `ticket`, to its end (its handle has the
    /// outcome then); returns the flows its release admitted, for the caller to run. Inlined into
    /// its callers, ``AdmittedFlow/runChain()`` and the loop it calls: a frame less on every
    /// flow's task.
    @inline(__always)
    func runAdmitted(holding ticket: Int) async -> [AdmittedFlow] {
        // The closure (and the body it holds, with all it captured) is a temporary of this
        // statement: released before the handle hears of the end, so a caller that awaited the
        // flow finds what its body captured gone, as it would after a task's end.
        let ending = await takeRun()(self, ticket)
        completion.end(ending.outcome)
        return ending.admitted
    }

    /// What runs the flow, taken: the lock hands a ticket to each record once. Out of line, like
    /// ``Completion/end(_:)``: synchronous code inlined into an async function keeps its
    /// temporaries in that function's frame, and both are inlined into
    /// ``AdmittedFlow/runChain()``, whose frame is under every flow's body (the chain's loop
    /// was 304 bytes with them inlined, 208 without).
    @inline(never)
    private func takeRun() -> Run {
        guard let pending = state.withLock({ $0.run.take() }) else { preconditionFailure("TaskFlow: a flow admitted twice") }
        return pending.run
    }

    /// Gives the handle the flow's outcome, and drops what would have run it.
    func end(_ outcome: ErasedOutcome) {
        state.withLock { $0.run = nil }
        completion.end(outcome)
    }

    func nextStepID() -> StepID {
        StepID(stepCounter.add(1, ordering: .relaxed).newValue)
    }

    /// `count` consecutive step ids, for a group's children: numbered in the order the group
    /// lists them, however their tasks happen to start.
    func reserveStepIDs(_ count: Int) -> [StepID] {
        let last = stepCounter.add(count, ordering: .relaxed).newValue
        return (last - count + 1...last).map(StepID.init)
    }

    /// Moves to `status` and tells observers.
    func transition(to status: FlowStatus) {
        state.withLock { state in
            state.enter(status)
            hub.emit(.statusChanged(info.id, status), about: info)
        }
        telemetry?.reached(status)
    }

    /// The body threw (see `bodyFailed`).
    func bodyFailed() {
        state.withLock { $0.bodyFailed = true }
    }

    /// The flow got the lock: it starts running unless it was cancelled meanwhile. A read flow
    /// takes its snapshot of the state then (``stateSnapshot``).
    func start() -> Bool {
        let snapshot = info.access == .read ? run.store.snapshot() : nil
        return state.withLock { state in
            guard !isCancelled else { return false }
            state.status = .running
            state.stateSnapshot = snapshot
            hub.emit(.statusChanged(info.id, .running), about: info)
            return true
        }
    }

    /// What a read flow's steps read as the state: the state when the flow got the lock,
    /// whatever write flows do after it. Nil for a write flow, and once the flow ended (a
    /// ``FlowContext`` is valid only inside its body, and a handle kept after the end must not
    /// keep a version of the state alive).
    var stateSnapshot: StateStore.Snapshot? {
        state.withLock { $0.stateSnapshot }
    }

    /// The body returned: the flow completes unless a cancel came first, in which case it must
    /// roll back. A completed write flow keeps `undoLog`.
    func complete(keeping undoLog: () -> UndoLog?) -> Bool {
        let completed = state.withLock { state in
            guard !isCancelled else { return false }
            state.enter(.completed)
            state.undoLog = undoLog()
            hub.emit(.statusChanged(info.id, .completed), about: info)
            return true
        }
        if completed { telemetry?.reached(.completed) }
        return completed
    }

    /// True once a cancel was requested (and had an effect).
    var isCancelled: Bool { cancelFlag.load(ordering: .acquiring) }

    /// Requests a cancel. Has an effect only while the flow is queued, waiting or running, and
    /// only the first time; returns whether it had one.
    func requestCancel() -> Bool {
        state.withLock { state in
            guard state.status.acceptsCancel, !state.bodyFailed,
                !cancelFlag.exchange(true, ordering: .acquiringAndReleasing)
            else { return false }
            if case .running = state.status {
                state.status = .cancelling
                hub.emit(.statusChanged(info.id, .cancelling), about: info)
            }
            return true
        }
    }

    /// Takes the undo log to start an undo, or explains why the flow can't be undone.
    func beginUndo(historyLimit: Int) throws -> UndoLog {
        try state.withLock { state in
            guard info.access == .write else { throw FlowError.undoOfReadFlow(flow: info) }
            guard case .completed = state.status else {
                throw FlowError.notUndoable(flow: info, phase: state.status.phase)
            }
            guard let log = state.undoLog else {
                throw FlowError.undoHistoryExpired(flow: info, limit: historyLimit)
            }
            state.undoLog = nil
            state.status = .undoing
            hub.emit(.statusChanged(info.id, .undoing), about: info)
            return log
        }
    }

    /// An undo was refused before any revert ran: the flow is completed again, with its log.
    func abandonUndo(_ log: UndoLog) {
        state.withLock { state in
            state.undoLog = log
            state.status = .completed
            hub.emit(.statusChanged(info.id, .completed), about: info)
        }
    }

    /// Drops the undo log: the manager that kept it goes.
    func releaseUndoLog() {
        state.withLock { $0.undoLog = nil }
    }

    /// Drops the undo log as the flow falls out of the undo history, unless an undo holds it
    /// now; returns whether it did. One step under the record's lock, so that no undo can take
    /// the log between the check and the drop.
    func expireUndoLog() -> Bool {
        state.withLock { state in
            guard state.status.phase != .undoing else { return false }
            state.undoLog = nil
            return true
        }
    }

    /// Whether it belongs in the undo history: it keeps its log, or an undo holds the log (an
    /// observer may undo a flow the instant it shows completed, before it joins the history;
    /// that undo waits for the lock the flow still holds, then takes the flow out of the
    /// history, or, if it is refused, gives the log back and must find the flow there).
    var belongsInUndoHistory: Bool {
        state.withLock { $0.undoLog != nil || $0.status.phase == .undoing }
    }

    // MARK: - Steps: each change is recorded for snapshots and emitted, under the same lock
    //
    // A step's start and end are read from the clock whether anyone observes or not: an
    // observer that comes later (a dashboard attaching) learns them from the snapshot alone.

    func stepStarted(_ step: StepInfo) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.currentStep = step
            state.progress = nil
            state.steps.start(step, at: now)
            hub.emit(.stepStarted(info.id, step), about: info)
        }
    }

    /// `step` completed: its revert `action`, with what was registered inside the step as its
    /// children, is registered inside the step's parent, or in the run's list (``FlowRun/reverts``)
    /// at the top level or when the parent already ended; nowhere unless `keeping`. In the same
    /// critical section that records and announces the step's end. (The run's list is locked
    /// inside this record's lock, as when the flow completes: always in that order.)
    func stepCompleted(_ step: StepInfo, _ action: RevertAction, keeping: Bool) {
        let now = ContinuousClock.now
        state.withLock { state in
            let children = state.steps.takeInside(step.id)
            end(step.id, .completed, at: now, in: &state)
            // Nothing to undo (a query, a step without revert): keep the log lean.
            if !keeping || (children.isEmpty && action.isNone) { return }
            let entry = RevertEntry(step: step, action: action, children: children)
            if let parent = step.parent, state.steps.register(entry, inside: parent) { return }
            // A parent that ended before this sub-step (started from a task it did not await)
            // will not revert it: the flow's own list does, in a rollback or an undo.
            run.reverts.append(entry)
        }
    }

    /// `step` ended without completing (`outcome`): returns what was registered inside it, for
    /// its rollback.
    func stepFailed(_ step: StepID, _ outcome: StepOutcome) -> [RevertEntry] {
        let now = ContinuousClock.now
        return state.withLock { state in
            end(step, outcome, at: now, in: &state)
            return state.steps.takeInside(step)
        }
    }

    /// Takes what was registered inside `step` so far (a durable step reverting its inside
    /// before its own revert).
    func takeInside(_ step: StepID) -> [RevertEntry] {
        state.withLock { $0.steps.takeInside(step) }
    }

    /// Records and announces `step`'s end: the last progress report its filter held back is
    /// published first, so observers see its last progress before its end (most steps report
    /// none, and pay one look at an empty dictionary).
    private func end(_ step: StepID, _ outcome: StepOutcome, at now: ContinuousClock.Instant, in state: inout Mutable) {
        if !state.filters.isEmpty {
            publish(state.filters.removeValue(forKey: step)?.lastHeldBack, of: step, in: &state)
        }
        state.steps.end(step, StepStatus(outcome), at: now)
        hub.emit(.stepFinished(info.id, step, outcome), about: info)
    }

    /// A report of `step`'s progress: published if its ``ProgressFilter`` lets it pass.
    func reportProgress(_ step: StepID, _ fraction: Double) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.steps.isLive(step) else { return }
            publish(state.filters[step, default: ProgressFilter()].admit(fraction, at: now), of: step, in: &state)
        }
    }

    private func publish(_ fraction: Double?, of step: StepID, in state: inout Mutable) {
        guard let fraction else { return }
        state.progress = fraction
        state.steps.update(step) { $0.progress = fraction }
        hub.emit(.progress(info.id, step, fraction))
    }

    /// A retried step's attempt failed; the next one starts after the notice's delay.
    func stepRetrying(_ retry: StepRetry) {
        state.withLock { _ in hub.emit(.stepRetrying(info.id, retry), about: info) }
    }

    func stepReverting(_ step: StepInfo) {
        reverted(step, .reverting, .stepReverting(info.id, step))
    }

    func stepReverted(_ step: StepInfo) {
        reverted(step, .reverted, .stepReverted(info.id, step))
    }

    func revertFailed(_ step: StepInfo, _ error: any Error) {
        let message = String(describing: error)
        reverted(step, .revertFailed(message), .revertFailed(info.id, step, message))
    }

    // Not inlined into the rollback's async function: its frame, which every revert allocates
    // from its task's allocator, would hold the event (1,440 of its 1,840 bytes).
    @inline(never)
    private func reverted(_ step: StepInfo, _ status: StepStatus, _ event: @autoclosure () -> FlowEvent) {
        state.withLock { state in
            state.steps.update(step.id) { $0.status = status }
            hub.emit(event(), about: info)
        }
    }

    func snapshot() -> FlowSnapshot {
        state.withLock { state in
            FlowSnapshot(
                info: info, status: state.status, currentStep: state.currentStep, progress: state.progress,
                steps: state.steps.snapshots, submitted: submitted)
        }
    }
}

