import NIOConcurrencyHelpers

/// Fans every ``StoredJobEvent`` out to all current subscribers, in one order.
///
/// Each subscriber gets its own unbounded stream (no event is ever dropped: "every event" is the
/// promise), and unsubscribes by ending its iteration. With no subscriber, emitting costs one
/// lock and builds nothing.
final class EventBroadcaster: Sendable {
    private struct Subscribers {
        var nextID = 0
        var continuations: [Int: AsyncStream<StoredJobEvent>.Continuation] = [:]
    }

    private let subscribers = NIOLockedValueBox(Subscribers())

    /// A stream of every event emitted from now on.
    func subscribe() -> AsyncStream<StoredJobEvent> {
        let (stream, continuation) = AsyncStream<StoredJobEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = subscribers.withLockedValue { state in
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLockedValue { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `events`, in order, to every subscriber. Evaluated only when someone listens.
    func emit(_ events: @autoclosure () -> [StoredJobEvent]) {
        // Yield under the lock: two emitters then cannot interleave their events differently
        // for different subscribers. `yield` on an unbounded stream only appends.
        subscribers.withLockedValue { state in
            guard !state.continuations.isEmpty else { return }
            let events = events()
            for continuation in state.continuations.values {
                for event in events { continuation.yield(event) }
            }
        }
    }

    /// Ends every stream, so that `for await` loops over ``JobStore/changes`` finish.
    func finish() {
        let continuations = subscribers.withLockedValue { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
