import DequeModule
import Logging
import TaskFlowSupport
import Tracing

/// The state-independent machinery behind a ``TaskFlowManager``: the lock, the event hub, the
/// registry of live flows, the bounded undo history, and the run/rollback/undo lifecycle.
final class FlowEngine: Sendable {
    private struct Registry {
        var lastID = 0
        /// By id (``NumberedSlots``: ids are given in increasing order, and most flows end soon).
        var live = NumberedSlots<FlowRecord>()
        /// Completed write flows that still hold their undo log, oldest first.
        var undoable: Deque<FlowRecord> = []
        /// False once a shutdown began: flows submitted from then on are refused.
        var accepting = true
        /// Who waits for the last live flow to end (``waitUntilIdle()``).
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let hub: EventHub
    let lock: PhaseFairLock
    /// `taskflow.flows`, `taskflow.flow.duration` and `taskflow.lock.wait` per access.
    private let metrics = MetricsCache<FlowAccess, FlowMetrics> { FlowMetrics(access: $0, factory: $1) }
    let undoHistoryLimit: Int
    /// What the flows' step retries wait on.
    let clock: any TimingClock
    private let registry = Protected(Registry())

    /// Kept undo logs capture their flow's record (through its reverts' contexts), so they are
    /// released explicitly when the engine goes: otherwise each would keep itself, and the event
    /// hub every record points to, alive, and observers' streams would never end.
    deinit {
        let kept = registry.withLock { registry in
            defer { registry.undoable = [] }
            return Array(registry.undoable)
        }
        for record in kept { record.releaseUndoLog() }
    }

    /// `logger` hears every flow's events (``FlowEventLog``); the no-op logger costs nothing.
    init(undoHistoryLimit: Int, clock: any TimingClock, logger: Logger = .noOp) {
        precondition(undoHistoryLimit >= 0, "undoHistoryLimit must not be negative")
        self.undoHistoryLimit = undoHistoryLimit
        self.clock = clock
        let hub = EventHub(log: FlowEventLog.of(logger))
        self.hub = hub
        lock = PhaseFairLock { event in hub.emit(.lock(event())) }
    }

    /// Registers a new flow on `store`, which `run` runs once it holds the lock (``runner(body:)``),
    /// and announces it; `accepted` is false once a shutdown began (``refuseNewFlows()``): the
    /// flow must then be ended with ``refuse(_:)``, else started with ``start(_:)``.
    func register(
        title: String, access: FlowAccess, store: StateStore, attachment: (any FlowAttachment)? = nil,
        run: @escaping FlowRecord.Run
    ) -> (record: FlowRecord, accepted: Bool) {
        // Looked up in the submitter's task (its metrics factory, tracer and context), outside
        // the registry's lock.
        let submitted = ContinuousClock.now
        let telemetry = FlowTelemetry.make(
            metrics: metrics.metrics(for: access), tracer: ActiveTracer.current, title: title, access: access, submitted: submitted)
        let registered = registry.withLock { registry in
            registry.lastID += 1
            let record = FlowRecord(
                info: FlowInfo(id: FlowID(registry.lastID), title: title, access: access), submitted: submitted, hub: hub,
                clock: clock, store: store, attachment: attachment, telemetry: telemetry, run: run)
            registry.live[record.info.id.rawValue] = record
            // Emitted under the registry lock so flows are announced in id order.
            hub.emit(.flowQueued(record.info), about: record.info)
            return (record: record, accepted: registry.accepting)
        }
        telemetry?.numbered(registered.record.info.id)
        return registered
    }

    // MARK: - Shutdown

    /// From now on, flows submitted are refused (``FlowError/shuttingDown``); those live go on.
    func refuseNewFlows() {
        registry.withLock { $0.accepting = false }
    }

    /// Ends a flow submitted after ``refuseNewFlows()``: failed before it ran, its body never runs.
    func refuse(_ record: FlowRecord) {
        record.transition(to: .failed(FlowError.shuttingDown))
        retire(record)
        record.end(.failure(FlowError.shuttingDown))
    }

    /// Cancels every live flow (each rolls back as after ``TaskFlow/cancel()``).
    func cancelAll() {
        for record in registry.withLock({ $0.live.valuesInKeyOrder }) { cancel(record) }
    }

    /// Returns once no flow is live (at once if none is): every rollback is over.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = registry.withLock { registry in
                guard !registry.live.isEmpty else { return true }
                registry.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Numbers the flows registered from now on from `first` at least: ids never go back, so
    /// the next one is `first` or, if flows were numbered past it already, the next as usual.
    func numberFlows(from first: FlowID) {
        registry.withLock { $0.lastID = max($0.lastID, first.rawValue - 1) }
    }

    /// The newest flow registered, nil before the first: ids are given in submission order, so
    /// every flow up to it has been announced (``FlowEvent/flowQueued(_:)``).
    var lastFlowID: FlowID? {
        registry.withLock { $0.lastID == 0 ? nil : FlowID($0.lastID) }
    }

    /// Starts a registered flow: at once, on a task of its own, when the lock lets it in; else
    /// it waits in the lock's queue as its record, without a task, to run on the task of the
    /// flow whose release admits it (``AdmittedFlow``). Its handle gets its outcome once its
    /// rollback is over and the lock released.
    ///
    /// A reader asks the lock from its own task: readers mostly enter at once and run side by
    /// side, and 100,000 submitted in a loop must not be let in one by one by the submitter. A
    /// writer asks from the submitter: writers mostly queue, and a queued one needs no task.
    func start(_ record: FlowRecord) {
        switch record.info.access {
        case .read:
            Task.detached { [self] in
                guard let admitted = admit(record) else { return }
                await admitted.runChain()
            }
        case .write:
            admit(record)?.start()
        }
    }

    /// Asks the lock for `record`: the flow to run if it got in; nil if it was queued (whoever
    /// admits it runs it) or withdrawn (ended here, cancelled).
    private func admit(_ record: FlowRecord) -> AdmittedFlow? {
        switch lock.enter(record, onEnqueued: { record.transition(to: .waiting) }) {
        case .admitted(let ticket): return AdmittedFlow(record: record, ticket: ticket)
        case .queued: return nil
        case .withdrawn:
            withdrawn(record)
            return nil
        }
    }

    /// How a flow with `body` runs once it holds the lock: in its span's context, its
    /// lock wait measured, to its end; made once per flow.
    func runner<State, Value: Sendable>(
        body: @escaping @Sendable (FlowContext<State>) async throws -> Value
    ) -> FlowRecord.Run {
        { [self] record, ticket in
            record.telemetry?.lockGiven()
            // A flow not traced is run without the context's frame around it.
            // Only asked whether there is a span: the span itself (an existential) is read in
            // `runTraced`, so that it takes no room in this frame.
            guard record.telemetry?.isTraced == true else {
                return await run(record, holding: ticket, body: body)
            }
            return await runTraced(record, holding: ticket, body: body)
        }
    }

    /// ``run(_:holding:body:)`` in the flow span's context. Out of line: inlined into the
    /// runner, the task-local's frame made every flow's frames overflow a slab of its task's
    /// allocator, one heap allocation more per flow, traced or not.
    @inline(never)
    private func runTraced<State, Value: Sendable>(
        _ record: FlowRecord, holding ticket: Int,
        body: @escaping @Sendable (FlowContext<State>) async throws -> Value
    ) async -> FlowRecord.Ending {
        await ServiceContext.$current.withValue(record.telemetry?.span?.context) {
            await run(record, holding: ticket, body: body)
        }
    }

    /// Ends a flow cancelled before it got the lock: its body never runs.
    private func withdrawn(_ record: FlowRecord) {
        record.transition(to: .cancelled)
        retire(record)
        record.end(.failure(CancellationError()))
    }

    /// A flow's life once it holds the lock under `ticket`: run the body, then complete or roll
    /// back. A flow's last events are always its final status, then the lock's release. Returns
    /// its outcome, for its handle, and the flows that release admitted, for the caller to run.
    ///
    /// Inlined into the runner's closure, with ``conclude(_:holding:value:)``: one
    /// async frame less per flow, and the synchronous completion out of line
    /// (``complete(_:holding:value:)``), which keeps what it builds off the flow's
    /// frames. Generic in the value too, so that it is boxed as `any Sendable` here rather than by
    /// a closure around the body: one frame and one closure less on the body's path.
    @inline(__always)
    private func run<State, Value: Sendable>(
        _ record: FlowRecord, holding ticket: Int,
        body: @Sendable (FlowContext<State>) async throws -> Value
    ) async -> FlowRecord.Ending {
        guard record.start() else {
            return (.failure(CancellationError()), finish(record, as: .cancelled, releasing: ticket))
        }
        let value: any Sendable
        do {
            value = try await body(FlowContext(scope: StepScope(ScopeCore(record: record, parent: nil, cancellation: .flow(record)))))
        } catch {
            await record.run.close()
            // The body failed: the rollback is coming whatever a cancel says now.
            record.bodyFailed()
            return await rollBack(record, holding: ticket, after: error)
        }
        return await conclude(record, holding: ticket, value: value)
    }

    /// The end of a flow whose body returned `value`: completes it, or rolls it back if a cancel
    /// came first or finishing its escaped steps or its attachment failed.
    @inline(__always)
    private func conclude(
        _ record: FlowRecord, holding ticket: Int, value: any Sendable
    ) async -> FlowRecord.Ending {
        do {
            // Steps the body let escape end (and register their reverts) before the flow does. A
            // cancel that arrives now still counts: the flow has not completed, so it rolls back.
            await record.run.close()
            try await record.attachment?.completing()
        } catch {
            return await rollBack(record, holding: ticket, after: error)
        }
        guard let ending = complete(record, holding: ticket, value: value) else {
            return await rollBack(record, holding: ticket, after: CancellationError())
        }
        return ending
    }

    /// Completes a flow whose body and escaped steps ended, unless a cancel came first (nil: it
    /// rolls back). Synchronous and out of line: what it builds stays off the flow's async frames.
    @inline(never)
    private func complete(
        _ record: FlowRecord, holding ticket: Int, value: any Sendable
    ) -> FlowRecord.Ending? {
        let keep = record.info.access == .write && undoHistoryLimit > 0
        let completed = record.complete(keeping: {
            // Only once it is sure to complete (a cancel would still roll back, and apply them).
            reportLeftoverRestores(of: record)
            // Always empty the run's list: a flow not kept for undo must release its reverts
            // now, and the reverts capture the record (a cycle until the list is emptied).
            let entries = record.run.reverts.drain()
            return keep
                ? UndoLog(entries: entries, state: record.run.store, version: record.run.store.version)
                : nil
        })
        guard completed else { return nil }
        // Into the history before the release: an undo needs the lock, so whenever it gets in,
        // it finds the flow there to take out. Retired after the release, an undo that came
        // between them took out nothing, and the undone flow joined the history afterwards.
        let retirement = leaveRegistry(record, undoable: keep)
        let admitted = lock.release(ticket, holder: record.info)
        retirement.announce(on: hub)
        return (.success(value), admitted)
    }

    /// Rolls back what `record`'s run registered (``FlowRun/reverts``) after `error` ended the
    /// run, and ends the flow. The step's own error decides the cause, not the cancel flag: a
    /// step that fails for real after a cancel was requested must not have its failure hidden as
    /// a cancel; the revert failures it carries are the rollback's. Out of line: inlined into the
    /// runner, its frame made every flow's frames overflow a slab of the task's allocator, one
    /// heap allocation more per flow, rolled back or not.
    @inline(never)
    private func rollBack(
        _ record: FlowRecord, holding ticket: Int, after error: any Error
    ) async -> FlowRecord.Ending {
        let (error, earlier) = RollbackIncompleteError.split(error)
        let cause = RollbackCause(error)
        record.transition(to: .rollingBack(cause))
        var failures = earlier
        failures += await Rollback(record: record).revert(record.run.reverts.drain())
        failures += Self.unrestored(record.run.store.takeUnrestored())
        let outcome = RollbackOutcome(cause: cause, failures: failures)
        await record.attachment?.ending(outcome.status)
        return (.failure(outcome.error), finish(record, as: outcome.status, releasing: ticket))
    }

    /// Restores that a step's own rollback left waiting (it failed inside a group after a
    /// sibling's update, and a retry or the body went on) can never apply once the flow
    /// completes: they are this flow's revert failures, reported now, and must not surface in a
    /// later flow's rollback as that flow's.
    private func reportLeftoverRestores(of record: FlowRecord) {
        guard record.info.access == .write else { return }
        for failure in Self.unrestored(record.run.store.takeUnrestored()) {
            hub.emit(.revertFailed(record.info.id, failure.step, String(describing: failure.error)), about: record.info)
        }
    }

    /// A failure for each update whose revert could not restore the state.
    private static func unrestored(_ steps: [StepInfo]) -> [RevertFailure] {
        steps.map { RevertFailure(step: $0, error: FlowError.stateChangedSinceUpdate(step: $0.title)) }
    }

    /// Cancels a flow (see ``TaskFlow/cancel()``): a flow waiting for the lock leaves its queue.
    func cancel(_ record: FlowRecord) {
        guard record.requestCancel() else { return }
        let (withdrawn, admitted) = lock.withdraw(record)
        if let withdrawn { self.withdrawn(withdrawn) }
        AdmittedFlow.start(admitted)
    }

    /// Undoes a completed write flow under the write lock. Runs in a task of its own so that
    /// cancelling the caller's task never interrupts a revert half-way.
    func undo(_ record: FlowRecord) async throws {
        // The caller's context, for the undo's span: the detached task does not inherit it.
        let context = record.telemetry?.span == nil ? nil : ServiceContext.current
        try await Task.detached { [self] in
            let span = record.telemetry?.undoSpan(
                title: record.info.title, id: record.info.id, access: record.info.access, context: context)
            guard let span else { return try await performUndo(record) }
            try await traceUndo(record, in: span)
        }.value
    }

    /// Runs the undo with `span` as the current context (its reverts are its children), and
    /// ends the span with the undo's outcome, or with the error that refused the undo.
    private func traceUndo(_ record: FlowRecord, in span: any Span) async throws {
        do {
            try await ServiceContext.$current.withValue(span.context) { try await performUndo(record) }
            FlowTelemetry.conclude(span, outcome: .undone, status: .undone)
        } catch {
            let status = record.status
            if case .rollbackIncomplete(.undo, _) = status {
                FlowTelemetry.conclude(span, outcome: .rollbackIncomplete, status: status)
            } else {
                SpanScope.failed(span, error)
                span.end()
            }
            throw error
        }
    }

    private func performUndo(_ record: FlowRecord) async throws {
        let log = try record.beginUndo(historyLimit: undoHistoryLimit)
        // The flow's own request, idle since the flow ran. Nothing withdraws it: a completed flow
        // takes no cancel, and an undo is not cancellable (it is itself the way back).
        // The flow's own metrics: the undo's task (detached) does not see the caller's factory.
        let asked = record.telemetry?.metrics == nil ? nil : ContinuousClock.now
        let ticket = try await lock.acquire(record)
        if let asked { record.telemetry?.metrics?.lockGiven(askedAt: asked) }
        guard !log.touchesState || log.stateIsAsLeft else {
            // A later flow changed the state this flow left: refuse before any revert runs, so
            // nothing is half-undone and the undo can be retried once the later flow is undone.
            // The flow keeps its place in the history, and its log: it joined the history before
            // it released the lock this undo holds, and no flow is pushed out while its undo
            // holds the log (``FlowRecord/expireUndoLog()``).
            record.abandonUndo(log)
            AdmittedFlow.start(lock.release(ticket, holder: record.info))
            throw FlowError.stateChangedSince(flow: record.info)
        }
        registry.withLock { registry in registry.undoable.removeAll { $0 === record } }
        var failures = await Rollback(record: record).revert(log.entries)
        failures += Self.unrestored(log.takeUnrestored())
        let outcome = RollbackOutcome(cause: .undo, failures: failures)
        await record.attachment?.ending(outcome.status)
        record.transition(to: outcome.status)
        AdmittedFlow.start(lock.release(ticket, holder: record.info))
        if !failures.isEmpty { throw outcome.error }
    }

    /// The live flow `id`, or the completed one of the undo history.
    func record(_ id: FlowID) -> FlowRecord? {
        registry.withLock { registry in registry.live[id.rawValue] ?? registry.undoable.first { $0.info.id == id } }
    }

    func snapshot() -> ManagerSnapshot {
        let (live, undoable) = registry.withLock { registry in
            (registry.live.valuesInKeyOrder, registry.undoable.map(\.info))
        }
        return ManagerSnapshot(flows: live.map { $0.snapshot() }, lock: lock.snapshot(), undoable: undoable)
    }

    // MARK: - Private

    /// Ends a flow that will not be kept for undo: final status, then the lock, then the
    /// registry. Returns the flows the release admitted, for the caller to run.
    private func finish(_ record: FlowRecord, as status: FlowStatus, releasing ticket: Int) -> [AdmittedFlow] {
        record.transition(to: status)
        let admitted = lock.release(ticket, holder: record.info)
        retire(record)
        return admitted
    }

    /// Forgets a flow that ended without joining the undo history (a completed flow kept for
    /// undo leaves in ``complete(_:holding:value:)``, before its release).
    private func retire(_ record: FlowRecord) {
        leaveRegistry(record, undoable: false).announce(on: hub)
    }

    /// Takes a finished flow out of the live flows, under the registry's lock; a completed write
    /// flow kept for undo (`undoable`) joins the undo history, pushing the oldest one out when
    /// the history is full. A flow whose undo is under way is never the one pushed out: the next
    /// oldest goes instead. What is left to do outside the lock, resuming the idle waiters and
    /// saying which flow was pushed out, is the returned retirement's to announce.
    private func leaveRegistry(_ record: FlowRecord, undoable: Bool) -> Retirement {
        registry.withLock { registry in
            registry.live[record.info.id.rawValue] = nil
            var idleWaiters: [CheckedContinuation<Void, Never>] = []
            if registry.live.isEmpty { swap(&idleWaiters, &registry.idleWaiters) }
            return Retirement(evicted: evictFromHistory(record, undoable: undoable, &registry), idleWaiters: idleWaiters)
        }
    }

    /// Adds a completed write flow to the undo history; returns the flow it pushed out.
    private func evictFromHistory(_ record: FlowRecord, undoable: Bool, _ registry: inout Registry) -> FlowRecord? {
        // An undo may already hold the log (the flow was visibly completed a moment before
        // this), waiting for the lock the flow still holds: the flow joins the history all the
        // same, for that undo to take it out, or to find it there if it is refused.
        guard undoable, record.belongsInUndoHistory else { return nil }
        registry.undoable.append(record)
        // The oldest whose log can go: `expireUndoLog` checks that no undo holds it and drops
        // it in one step (an undo that took it after a separate check would go on while the
        // flow was announced as expired). It runs for each flow up to that one, which is the
        // first, bar a flow being undone.
        guard registry.undoable.count > undoHistoryLimit,
            let oldest = registry.undoable.firstIndex(where: { $0.expireUndoLog() })
        else { return nil }
        // Almost always the first: `removeFirst` is a few instructions, where `remove(at:)`
        // takes the deque's general path for any range (about 200 per flow).
        guard oldest != registry.undoable.startIndex else { return registry.undoable.removeFirst() }
        return registry.undoable.remove(at: oldest)
    }
}

/// How a rollback ended: the final status and the error `value` throws.
private struct RollbackOutcome {
    let cause: RollbackCause
    let failures: [RevertFailure]

    var status: FlowStatus {
        guard failures.isEmpty else { return .rollbackIncomplete(cause, failures) }
        switch cause {
        case .cancelled: return .cancelled
        case .failed(let error): return .failed(error)
        case .undo: return .undone
        }
    }

    var error: any Error {
        guard failures.isEmpty else { return RollbackIncompleteError(cause: cause, failures: failures) }
        switch cause {
        case .cancelled, .undo: return CancellationError()
        case .failed(let error): return error
        }
    }
}

/// What a flow leaving the registry leaves to do once the registry's lock is released.
private struct Retirement {
    /// The flow pushed out of the undo history, its log dropped, if one was.
    let evicted: FlowRecord?
    /// Who waited for the last live flow to end, if this was it.
    let idleWaiters: [CheckedContinuation<Void, Never>]

    /// Resumes the idle waiters, and says which flow was pushed out of the undo history (its
    /// log is gone already).
    func announce(on hub: EventHub) {
        for waiter in idleWaiters { waiter.resume() }
        if let evicted { hub.emit(.undoExpired(evicted.info.id)) }
    }
}
