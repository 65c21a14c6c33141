import TaskFlow
import TaskFlowSupport

/// A program's own ``TaskFlowManager`` as a ``FlowSource``: what `Dashboard` shows. The program
/// submits the flows, before the dashboard starts and after, from any thread; the source only
/// watches. It yields a ``FlowHandle`` for every flow it learns of — those live when
/// ``start()`` is called (the manager's snapshot), then each ``FlowEvent/flowQueued(_:)`` — and
/// the handle acts through the manager by id (``TaskFlowManager/cancel(_:)``,
/// ``TaskFlowManager/undo(_:)``), since the program holds the flows' own handles. Keys need not
/// wait for it: ``handle(of:)`` reaches any of the manager's flows at once.
///
/// Its handle stream goes on for as long as the dashboard runs (the program may submit more at
/// any time; while the user quits, the dashboard cancels those too). A headless run ends instead
/// once every flow due has been adopted and has finished (``newestFlowDue()``).
package final class ManagerSource<State: Sendable>: FlowSource {
    package let name: String
    package let jobQueues: (any JobQueueSource)?
    private let manager: TaskFlowManager<State>
    /// What ``start()`` found: the newest flow submitted by then, and the newest of those live.
    private let atStart = Protected<(submitted: FlowID?, newestLive: FlowID?)?>(nil)

    /// Watches `manager`, showing `name` in the header, and `queues` in the queues view.
    package init(name: String, manager: TaskFlowManager<State>, queues: (any JobQueueSource)? = nil) {
        self.name = name
        self.manager = manager
        jobQueues = queues
    }

    package func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }

    package func snapshot() -> ManagerSnapshot { manager.snapshot() }

    package var submitsUntilStopped: Bool { true }

    /// The newest flow a headless run must adopt before it may end: the newest submitted since
    /// ``start()``, else the newest of the flows live then; nil when neither exists (nothing was
    /// live at the start and nothing came since). Flows are numbered in submission order and
    /// announced in that order, so adopting it means every flow before it was adopted too.
    package func newestFlowDue() -> FlowID? {
        guard let atStart = atStart.withLock({ $0 }) else { return nil }
        if let newest = manager.lastFlowID, newest > atStart.submitted ?? FlowID(0) { return newest }
        return atStart.newestLive
    }

    /// Yields a handle for each flow live now, then for each flow submitted from now on, until
    /// the consumer stops iterating.
    @MainActor package func start() -> AsyncStream<FlowHandle> {
        // Subscribed first: a flow submitted after the snapshot is announced on `queued`.
        let queued = manager.events
        let submitted = manager.lastFlowID
        let live = manager.snapshot().flows.map(\.info.id)
        atStart.withLock { $0 = (submitted, live.last) }
        let manager = manager
        return AsyncStream { continuation in
            for id in live { continuation.yield(Self.handle(id, of: manager)) }
            let yielded = Set(live)
            let relay = Task {
                for await case .flowQueued(let info) in queued where !yielded.contains(info.id) {
                    continuation.yield(Self.handle(info.id, of: manager))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// Any flow of the manager, by id: a key acts on the program's flow as it is pressed, whether
    /// or not the stream's handle of it was taken yet.
    package func handle(of id: FlowID) -> FlowHandle? { Self.handle(id, of: manager) }

    /// The dashboard's handle of flow `id`: the manager cancels and undoes it by id.
    private static func handle(_ id: FlowID, of manager: TaskFlowManager<State>) -> FlowHandle {
        FlowHandle(id: id, cancel: { manager.cancel(id) }, undo: { try await manager.undo(id) })
    }
}
