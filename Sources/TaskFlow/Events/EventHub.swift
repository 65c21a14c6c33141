import TaskFlowSupport

/// The engine's fan-out of flow events: every event, stamped with the moment it happened, to all
/// current observers in one global order, without making the flows that emit them wait for the
/// observers (a ``Broadcaster``: each observer's events queue up while it works, so a flow's
/// several events per step cost it one wake-up per burst).
/// Emitting costs a single atomic load while nobody observes. The streams end when the manager
/// goes away (with the last flow that holds the hub).
///
/// With a log (``FlowEventLog``), every event is also logged as it is emitted, in the emitter's
/// order; without one (the default no-op logger) emitting costs what it did.
struct EventHub: Sendable {
    private let broadcaster = Broadcaster<TimedFlowEvent>()
    private let log: FlowEventLog?

    /// A hub that also logs every event to `log`, if any.
    init(log: FlowEventLog? = nil) { self.log = log }

    /// A new stream that receives every event emitted from now on, until the stream's consumer
    /// stops iterating (its task is cancelled, or it breaks out and the stream is released),
    /// which unsubscribes it.
    func subscribe() -> AsyncStream<FlowEvent> { broadcaster.subscribe { $0.event } }

    /// Like ``subscribe()``, each event with the moment it happened.
    func subscribeTimed() -> AsyncStream<TimedFlowEvent> { broadcaster.subscribe() }

    /// Like ``subscribeTimed()``, holding at most `limit` events not yet taken: newer ones are
    /// dropped, each with a call to `dropped`.
    func subscribeTimed(limit: Int, dropped: @escaping @Sendable () -> Void) -> AsyncStream<TimedFlowEvent> {
        broadcaster.subscribe(limit: limit, dropped: dropped)
    }

    /// Queues an event for every observer, stamped with the moment it happened. `event` is only
    /// evaluated, and the clock only read, when someone listens (under the broadcaster's lock, so
    /// times never run backwards in the order events are given). `flow` is the flow the event is
    /// about, for the log's record, where the emitter has it.
    func emit(_ event: @autoclosure () -> FlowEvent, about flow: FlowInfo? = nil) {
        guard let log else {
            broadcaster.emit(TimedFlowEvent(time: .now, event: event()))
            return
        }
        let event = event()
        log.record(event, flow: flow)
        broadcaster.emit(TimedFlowEvent(time: .now, event: event))
    }
}
