import TaskFlow

/// A source of flows for the dashboard to show: the built-in demo, a scenario file being
/// played, or a caller's own flows on their own manager.
package protocol FlowSource: Sendable {
    /// The name shown in the header.
    var name: String { get }

    /// A new stream of every event of the manager the flows run on, with the moment each
    /// happened (``TaskFlowManager/timedEvents``): the dashboard's durations come from those.
    func events() -> AsyncStream<TimedFlowEvent>

    /// The manager's flows and lock right now (``TaskFlowManager/snapshot()``). The dashboard
    /// takes it right after subscribing to ``events()``, so that flows started before it
    /// attached show too, and nothing happens between the two unseen.
    func snapshot() -> ManagerSnapshot

    /// Starts submitting flows. The stream yields each flow's handle as it is submitted, so the
    /// dashboard can cancel and undo it, and finishes once the last flow was submitted and the
    /// source's other work (its jobs) ended: a headless run ends when its flows have finished
    /// after that.
    @MainActor func start() -> AsyncStream<FlowHandle>

    /// A handle acting on flow `id` right now, for a source that reaches its flows by id (a
    /// program's manager, ``ManagerSource``); nil for the others. The dashboard lists a flow
    /// (snapshot, events) before its handle comes on ``start()``'s stream, and a key on it would
    /// otherwise wait for the handle: a running flow that completed meanwhile ran to the end
    /// under the cancel's "rolling back" notice.
    func handle(of id: FlowID) -> FlowHandle?

    /// True for a source whose flows keep coming for as long as the program runs (a program's
    /// own manager, ``ManagerSource``): its ``start()`` stream never finishes, so a headless run
    /// ends instead once the flow ``newestFlowDue()`` names is adopted and every adopted flow has
    /// finished.
    var submitsUntilStopped: Bool { get }

    /// For a source that ``submitsUntilStopped``: the newest flow a headless run must have
    /// adopted before it may end, asked each time it could (nil: none is due).
    func newestFlowDue() -> FlowID?

    /// Returns once the flows due at the start (a scenario's flows without a `start` time) are
    /// submitted to the manager, after ``start()``: a start-up waits for them before the keys
    /// typed meanwhile act, so that those keys find the list the user is about to see.
    @MainActor func flowsDueAtStartSubmitted() async

    /// Submits nothing more: the user is quitting. Flows already submitted are the dashboard's
    /// to cancel.
    @MainActor func stopSubmitting()

    /// In-process job queues the source adds jobs to, shown in the queues view; nil for sources
    /// without queues.
    var jobQueues: (any JobQueueSource)? { get }

    /// A job store the source works with, shown in the jobs view (which the dashboard then
    /// opens on); nil for sources of flows only.
    var jobStore: (any JobStoreSource)? { get }

    /// The program is ending: release what the source holds (a job store's workers finish and
    /// commit the jobs they run, so none is left claimed). Awaited, for a bounded time.
    func shutDown() async
}

extension FlowSource {
    /// Most sources submit their first flows within ``start()``.
    @MainActor package func flowsDueAtStartSubmitted() async {}

    /// A source that submits everything at once has nothing left to stop.
    @MainActor package func stopSubmitting() {}

    /// Most sources submit a known set of flows: their stream's end says that all are in.
    package var submitsUntilStopped: Bool { false }

    /// Most sources reach a flow only through the handle their stream yields.
    package func handle(of id: FlowID) -> FlowHandle? { nil }

    /// Most sources' stream's end says that all flows are in.
    package func newestFlowDue() -> FlowID? { nil }

    /// Most sources are flows only.
    package var jobStore: (any JobStoreSource)? { nil }

    /// Most sources have no job queues.
    package var jobQueues: (any JobQueueSource)? { nil }

    /// Most sources hold nothing that outlives their flows.
    package func shutDown() async {}
}

extension AsyncStream where Element == FlowHandle {
    /// A stream of handles that were all submitted already.
    package static func submitted(_ handles: [FlowHandle]) -> AsyncStream<FlowHandle> {
        AsyncStream { continuation in
            for handle in handles { continuation.yield(handle) }
            continuation.finish()
        }
    }
}
