/// Fans every event out to all current observers, in one global order.
///
/// Emission happens under the hub's mutex so that events from concurrent flows reach every
/// observer in the same order. Building an event is skipped entirely while nobody observes,
/// which keeps unobserved flows cheap.
final class EventHub: Sendable {
    private struct Subscribers {
        var nextID = 0
        var continuations: [Int: AsyncStream<FlowEvent>.Continuation] = [:]
    }

    private let subscribers = Protected(Subscribers())

    /// A new stream that receives every event emitted from now on, until the stream's consumer
    /// stops iterating (its task is cancelled or it breaks out), which unsubscribes it.
    func subscribe() -> AsyncStream<FlowEvent> {
        let (stream, continuation) = AsyncStream<FlowEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = subscribers.withLock { state in
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every observer's stream when the manager goes away, so `for await` loops finish.
    deinit {
        let continuations = subscribers.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// Delivers an event to every observer. `event` is only evaluated when someone listens.
    func emit(_ event: @autoclosure () -> FlowEvent) {
        subscribers.withLock { state in
            guard !state.continuations.isEmpty else { return }
            let event = event()
            for continuation in state.continuations.values { continuation.yield(event) }
        }
    }
}
