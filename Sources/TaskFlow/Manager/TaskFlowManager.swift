import Logging

/// Runs flows under one phase-fair read/write lock and, optionally, owns the state they read
/// and change. Safe to use from any thread or actor.
///
/// ```swift
/// let manager = TaskFlowManager(state: Library())
/// let flow = manager.execute(title: "Import books", access: .write) { flow in
///     try await flow.update { $0.books.append("Dune") }
/// }
/// flow.cancel()   // the current step finishes, then everything registered is reverted
/// ```
public final class TaskFlowManager<State: Sendable>: Sendable {
    let engine: FlowEngine
    private let store: StateStore

    /// Creates a manager that owns `state`. Write flows change it through
    /// ``FlowContext/update(title:_:)``; read flows see a snapshot.
    /// `undoHistoryLimit` is how many of the most recently completed write flows keep their
    /// revert log for ``TaskFlow/undo()`` (older logs are released; 0 keeps none).
    ///
    /// `logger` hears what the flows do, each record with the flow's id, title and access (and
    /// the step's, for a step): a failed revert or a rollback left incomplete at `error`, a
    /// failed flow at `warning` (nothing is left half-applied, and its submitter gets the error),
    /// a cancelled or undone flow and a retried step at `info`, the rest at `debug` and `trace`.
    /// The default logs nothing and costs nothing.
    public convenience init(
        state: State, undoHistoryLimit: Int = 100,
        logger: Logger = Logger(label: "taskflow", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(state: state, undoHistoryLimit: undoHistoryLimit, clock: ContinuousClock(), logger: logger)
    }

    /// A manager whose flows' step retries wait their backoff on `clock`: for tests.
    package init(state: State, undoHistoryLimit: Int = 100, clock: any TimingClock, logger: Logger = .noOp) {
        engine = FlowEngine(undoHistoryLimit: undoHistoryLimit, clock: clock, logger: logger)
        store = StateStore(state)
    }

    /// The state as it is now.
    public var state: State { store.value(as: State.self) }

    /// How many completed write flows keep their undo log.
    public var undoHistoryLimit: Int { engine.undoHistoryLimit }

    /// A new stream of every event from now on. Each access is a new observer that gets every
    /// event, in the order the changes happened; it ends when its consumer stops iterating, or
    /// once the manager and every ``TaskFlow`` handle of it are released. Pair it with ``snapshot()`` to draw what existed before
    /// subscribing.
    ///
    /// Flows never wait for observers: each event is queued for every observer before the change
    /// that made it goes on, and an observer may not have taken it yet when ``TaskFlow/value``
    /// returns. The queue is unbounded, so an observer must keep consuming (progress is
    /// coalesced to keep floods small).
    public var events: AsyncStream<FlowEvent> { engine.hub.subscribe() }

    /// Like ``events``, each event with the moment it happened (``TimedFlowEvent``): what an
    /// observer needs to show durations as the flows lived them, however late events arrive.
    public var timedEvents: AsyncStream<TimedFlowEvent> { engine.hub.subscribeTimed() }

    /// Like ``timedEvents``, for an observer that may fall behind (a console encoding every event
    /// for its clients): the stream holds at most `limit` events not yet taken, and past that
    /// drops the newer ones, calling `dropped` for each. The observer's memory stays bounded;
    /// it catches up with a ``snapshot()``, later: `dropped` is called by the flow that emitted
    /// the event, possibly while it holds the engine's locks and from several flows at once, so
    /// it must only take note (a counter, a signal), never block or call into the manager.
    package func timedEvents(limit: Int, dropped: @escaping @Sendable () -> Void) -> AsyncStream<TimedFlowEvent> {
        engine.hub.subscribeTimed(limit: limit, dropped: dropped)
    }

    /// The live flows, the lock and the undo history right now.
    public func snapshot() -> ManagerSnapshot { engine.snapshot() }

    /// The newest flow submitted so far, nil before the first. Flows are numbered in submission
    /// order, so a watcher that heard of this one (``FlowEvent/flowQueued(_:)``) heard of every
    /// flow submitted since it subscribed: how an embedded dashboard knows no flow is on its way.
    package var lastFlowID: FlowID? { engine.lastFlowID }

    /// Numbers the flows submitted from now on from `first` at least (never back): durable
    /// flows take ids no other process sharing their journal uses, so that an id names one flow
    /// after a restart too.
    package func numberFlows(from first: FlowID) { engine.numberFlows(from: first) }

    /// Cancels live flow `id` exactly as its handle's ``TaskFlow/cancel()`` would: what a watcher
    /// (the dashboard, a console client) that never held the handle does. Returns false when no
    /// live flow has that id (it ended, or never existed); like `cancel()`, a flow that is
    /// already cancelling or rolling back is left as it is.
    @discardableResult
    public func cancel(_ id: FlowID) -> Bool {
        guard let record = engine.record(id), !record.status.isFinished else { return false }
        engine.cancel(record)
        return true
    }

    /// Undoes completed write flow `id` exactly as its handle's ``TaskFlow/undo()`` would.
    /// Throws ``FlowError/unknownFlow(_:)`` when the manager knows no such flow (not live, not
    /// in the undo history), and otherwise what `undo()` throws.
    public func undo(_ id: FlowID) async throws {
        guard let record = engine.record(id) else { throw FlowError.unknownFlow(id) }
        try await engine.undo(record)
    }

    /// Submits a flow and returns its handle at once. The body runs off the main actor as soon as
    /// the lock admits the flow: alone for `.write`, beside other readers for `.read`.
    ///
    /// If the body throws, or the flow is cancelled, every revert its steps registered runs in
    /// reverse order before ``TaskFlow/value`` throws.
    ///
    /// The body holds the lock until it ends, so it must not await what needs the lock after it:
    /// the `value` of a later write flow (or of any flow, in a write flow), or ``TaskFlow/undo()``.
    /// Doing so waits forever. The `FlowContext` is only valid inside the body.
    @discardableResult
    public func execute<Value: Sendable>(
        title: String,
        access: FlowAccess = .write,
        body: @escaping @Sendable (FlowContext<State>) async throws -> Value
    ) -> TaskFlow<Value> {
        execute(title: title, access: access, attachment: nil, body: body)
    }

    /// ``execute(title:access:body:)`` with `attachment` kept beside the flow, where its steps
    /// find it (``StepContext/flowAttachment``): how a durable flow's steps reach its journal.
    package func execute<Value: Sendable>(
        title: String, access: FlowAccess, attachment: (any FlowAttachment)?,
        body: @escaping @Sendable (FlowContext<State>) async throws -> Value
    ) -> TaskFlow<Value> {
        let run = engine.runner(body: body)
        let (record, accepted) = engine.register(
            title: title, access: access, store: store, attachment: attachment, run: run)
        if accepted {
            engine.start(record)
        } else {
            engine.refuse(record)
        }
        return TaskFlow(record: record, engine: engine)
    }
}

extension TaskFlowManager where State == Void {
    /// Creates a manager without state: flows only coordinate through the lock. `logger` as for
    /// ``TaskFlowManager/init(state:undoHistoryLimit:logger:)``.
    public convenience init(
        undoHistoryLimit: Int = 100, logger: Logger = Logger(label: "taskflow", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(state: (), undoHistoryLimit: undoHistoryLimit, logger: logger)
    }

    /// A manager without state whose flows' step retries wait on `clock`: for tests.
    package convenience init(undoHistoryLimit: Int = 100, clock: any TimingClock) {
        self.init(state: (), undoHistoryLimit: undoHistoryLimit, clock: clock)
    }
}
