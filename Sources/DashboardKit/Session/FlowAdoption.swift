import TaskFlow

/// The flows the dashboard's keys can reach, each in one documented ``State``: the handles a
/// source yields (``FlowSource/start()``), matched with what the engine's events say of the
/// same flows. The two come on streams not ordered with each other — a flow is listed, and may
/// even finish, before its handle arrives — so each flow's state says what is known of both.
/// A source that reaches its flows by id (``reach``) lets keys act at once instead: a cancel
/// kept for the handle's arrival comes too late for a flow that completed meanwhile.
///
/// It also tells a headless run when every adopted flow has finished (``allFinished``), and
/// keeps memory bounded however long the session runs: handles of flows the board dropped are
/// released, and once the source yields no more handles (``handlesEnded()``) nothing waits for one.
struct FlowAdoption {
    /// Where one flow is between its first news and being let go.
    enum State {
        /// Listed, its handle not here yet, the source does not reach it by id, and a key asked
        /// to cancel it (keys typed during the start-up act on the listed flows): the handle is
        /// cancelled as it arrives.
        case cancelOnArrival
        /// Finished before its handle arrived: adopting it does not count it as unfinished.
        case finishedBeforeArrival
        /// Finished before its handle arrived, the source does not reach it by id, and a key
        /// asked to undo it: undone as the handle arrives.
        case undoOnArrival
        /// Its handle here, not finished: a headless run waits for it.
        case running(FlowHandle)
        /// Its handle here, finished: kept for undo while the board shows the flow, released
        /// once the board dropped it.
        case finished(FlowHandle)
    }

    private var flows: [FlowID: State] = [:]
    /// How many flows are ``State/running``.
    private var running = 0
    /// How many flows hold a handle (running or finished).
    private var held = 0
    /// Set once the source yields no more handles: a flow's news no longer waits for one.
    private var handlesAreIn = false

    /// The source's handle of a flow by id, before the flow's own arrives
    /// (``FlowSource/handle(of:)``); nil when the source has none.
    var reach: (FlowID) -> FlowHandle? = { _ in nil }

    /// The newest flow whose handle arrived.
    private(set) var newestAdopted: FlowID?

    /// True when no adopted flow is still running.
    var allFinished: Bool { running == 0 }

    /// How many flows it keeps a state for: bounded by the board, whatever the run's length.
    var trackedFlows: Int { flows.count }

    /// The handle of flow `id`, if it arrived and is kept.
    func handle(_ id: FlowID) -> FlowHandle? {
        switch flows[id] {
        case .running(let handle), .finished(let handle): handle
        case .cancelOnArrival, .finishedBeforeArrival, .undoOnArrival, nil: nil
        }
    }

    /// The handle to undo flow `id` with now (the source's by id if the flow's own is not here
    /// yet); nil when there is none, and then, if the flow finished before its handle arrived,
    /// ``adopt(_:listed:quitting:)`` returns it for the undo.
    mutating func undo(_ id: FlowID) -> FlowHandle? {
        if case .finishedBeforeArrival = flows[id], !handlesAreIn {
            // Undone now: the handle arriving later is kept as finished, not undone again.
            if let reached = reach(id) { return reached }
            set(id, .undoOnArrival)
        }
        return handle(id)
    }

    /// Takes a newly submitted flow's handle. `listed`: the board shows the flow (one that
    /// finished and was dropped before its handle came is not kept); `quitting`: every flow is
    /// being cancelled, so this one is too. Returns the handle when a key asked to undo the flow
    /// before it came: the caller undoes it now.
    @discardableResult
    mutating func adopt(_ handle: FlowHandle, listed: Bool, quitting: Bool) -> FlowHandle? {
        newestAdopted = max(newestAdopted ?? handle.id, handle.id)
        switch flows[handle.id] {
        case .undoOnArrival:
            set(handle.id, .finished(handle))
            return handle
        case .finishedBeforeArrival:
            set(handle.id, listed ? .finished(handle) : nil)
        case .cancelOnArrival:
            set(handle.id, .running(handle))
            handle.cancel()
        case .running, .finished, nil:
            set(handle.id, .running(handle))
            if quitting { handle.cancel() }
        }
        return nil
    }

    /// Cancels flow `id` now — through its handle, or the source's by id while that is on its
    /// way — or else as soon as its handle arrives.
    mutating func cancel(_ id: FlowID) {
        switch flows[id] {
        case .running(let handle), .finished(let handle): handle.cancel()
        case nil where !handlesAreIn:
            // Now, while the flow still runs: by its handle's arrival it may have completed.
            if let reached = reach(id) { reached.cancel() } else { set(id, .cancelOnArrival) }
        case .cancelOnArrival, .finishedBeforeArrival, .undoOnArrival, nil: break
        }
    }

    /// Flow `id` finished. Once more flows hold a handle than the board shows by a batch, the
    /// handles of flows it dropped are released (a dropped flow can no longer be selected).
    mutating func finished(_ id: FlowID, board: FlowBoard) {
        switch flows[id] {
        case .running(let handle): set(id, .finished(handle))
        case .cancelOnArrival, nil: set(id, handlesAreIn ? nil : .finishedBeforeArrival)
        case .finished, .finishedBeforeArrival, .undoOnArrival: break
        }
        guard held > board.flows.count + board.dropBatch else { return }
        for (id, state) in flows {
            if case .finished = state, board.flow(id) == nil { set(id, nil) }
        }
    }

    /// The source yields no more handles: flows waiting for theirs (the start-up's row, a
    /// program's flows started before the dashboard attached) never get one, so they are
    /// forgotten, and later news no longer waits for one.
    mutating func handlesEnded() {
        handlesAreIn = true
        for (id, state) in flows {
            switch state {
            case .cancelOnArrival, .finishedBeforeArrival, .undoOnArrival: set(id, nil)
            case .running, .finished: break
            }
        }
    }

    /// Moves flow `id` to `state` (nil: forgotten), keeping the counts.
    private mutating func set(_ id: FlowID, _ state: State?) {
        if let old = flows[id] { count(old, by: -1) }
        flows[id] = state
        if let state { count(state, by: 1) }
    }

    private mutating func count(_ state: State, by step: Int) {
        switch state {
        case .running: (running, held) = (running + step, held + step)
        case .finished: held += step
        case .cancelOnArrival, .finishedBeforeArrival, .undoOnArrival: break
        }
    }
}
