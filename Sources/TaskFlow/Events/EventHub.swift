import Synchronization

/// Fans every event out to all current observers, in one global order, without making the
/// flows that emit them wait for the observers.
///
/// Emitting appends the event to each observer's pending batch under one lock (so all observers
/// see the same order) and costs nothing at all while nobody observes. Handing events to an
/// observer's `AsyncStream` wakes the observer, which costs microseconds; that is done by a
/// delivery task per observer, off the emitting flow, one batch at a time, so a burst of events
/// costs one wake-up instead of one per event.
final class EventHub: Sendable {
    /// Where an observer's events go: a stream of plain events or of timed ones.
    private enum Sink: Sendable {
        case plain(AsyncStream<FlowEvent>.Continuation)
        case timed(AsyncStream<TimedFlowEvent>.Continuation)

        func yield(_ event: TimedFlowEvent) {
            switch self {
            case .plain(let continuation): continuation.yield(event.event)
            case .timed(let continuation): continuation.yield(event)
            }
        }

        func finish() {
            switch self {
            case .plain(let continuation): continuation.finish()
            case .timed(let continuation): continuation.finish()
            }
        }
    }

    private struct Observer {
        let id: Int
        let sink: Sink
        var pending: [TimedFlowEvent] = []
        /// True while a delivery task owns this observer's batches; at most one at a time, so
        /// each observer gets its events in order.
        var delivering = false
    }

    private struct Observers {
        var nextID = 0
        var list: [Observer] = []
    }

    private let observers = Protected(Observers())
    /// Read without the lock so that emitting with no observer is a single atomic load.
    private let observerCount = Atomic<Int>(0)

    /// A new stream that receives every event emitted from now on, until the stream's consumer
    /// stops iterating (its task is cancelled or it breaks out), which unsubscribes it.
    func subscribe() -> AsyncStream<FlowEvent> {
        let (stream, continuation) = AsyncStream<FlowEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = add(.plain(continuation))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// Like ``subscribe()``, each event with the moment it happened.
    func subscribeTimed() -> AsyncStream<TimedFlowEvent> {
        let (stream, continuation) = AsyncStream<TimedFlowEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = add(.timed(continuation))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    private func add(_ sink: Sink) -> Int {
        observers.withLock { state in
            state.nextID += 1
            state.list.append(Observer(id: state.nextID, sink: sink))
            observerCount.add(1, ordering: .relaxed)
            return state.nextID
        }
    }

    /// Ends every observer's stream when the manager goes away, so `for await` loops finish.
    /// Delivery tasks hold the hub, so nothing is pending by now.
    deinit {
        let sinks = observers.withLock { state in
            defer { state.list = [] }
            return state.list.map(\.sink)
        }
        for sink in sinks { sink.finish() }
    }

    /// Queues an event for every observer, stamped with the moment it happened. `event` is only
    /// evaluated, and the clock only read, when someone listens.
    func emit(_ event: @autoclosure () -> FlowEvent) {
        guard observerCount.load(ordering: .relaxed) > 0 else { return }
        let idle = observers.withLock { state -> [Int] in
            guard !state.list.isEmpty else { return [] }
            // Read under the lock, so times never run backwards in the order events are given.
            let event = TimedFlowEvent(time: .now, event: event())
            var idle: [Int] = []
            for index in state.list.indices {
                state.list[index].pending.append(event)
                if !state.list[index].delivering {
                    state.list[index].delivering = true
                    idle.append(state.list[index].id)
                }
            }
            return idle
        }
        for id in idle {
            Task.detached { [self] in deliver(to: id) }
        }
    }

    /// Hands an observer its pending events, batch after batch, until none is left.
    private func deliver(to id: Int) {
        while let (batch, sink) = takeBatch(of: id) {
            for event in batch { sink.yield(event) }
        }
    }

    /// The observer's pending events, or nil (and the observer marked idle) when there are none.
    private func takeBatch(of id: Int) -> ([TimedFlowEvent], Sink)? {
        observers.withLock { state in
            guard let index = state.list.firstIndex(where: { $0.id == id }) else { return nil }
            guard !state.list[index].pending.isEmpty else {
                state.list[index].delivering = false
                return nil
            }
            defer { state.list[index].pending = [] }
            return (state.list[index].pending, state.list[index].sink)
        }
    }

    private func unsubscribe(_ id: Int) {
        observers.withLock { state in
            state.list.removeAll { $0.id == id }
            observerCount.store(state.list.count, ordering: .relaxed)
        }
    }
}
