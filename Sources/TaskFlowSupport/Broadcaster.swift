import Synchronization

/// Fans events out to any number of `AsyncStream` subscribers: the package's one fan-out (a flow
/// engine's events, a job queue's, a job store's changes).
///
/// What it guarantees:
/// - **Every event, one order.** Each subscriber's stream is unbounded, so no event is ever
///   dropped, and events are handed on under one lock, so every subscriber sees them in the same
///   order; the events of one ``emit(contentsOf:)`` stay together. An event is built under that
///   lock too, so a time it reads never runs backwards in the order events are given.
/// - **Nothing while nobody listens.** Emitting with no subscriber is a single atomic load: the
///   event is not even built (the common case for a busy engine or queue).
/// - **Ends.** A subscription ends when its consumer stops iterating (its task is cancelled or it
///   breaks out); ``finish()``, or the broadcaster going away, ends every stream after the events
///   already emitted, so `for await` loops finish.
///
/// The emitting path is public (in a module that is no product) and inlinable, so that it is
/// specialized and inlined in the module that emits: the compiler does not inline `package`
/// declarations across modules. The rest is `package`.
public final class Broadcaster<Event: Sendable>: Sendable {
    /// How events reach the subscribers' streams.
    @usableFromInline package enum Delivery: Sendable {
        /// Yielded to every stream inside `emit`: simplest, and cheap for a few events per unit of
        /// work (a job queue's handful per job, a store's per commit).
        case immediate
        /// Queued per subscriber and handed to its stream by a delivery task, off the emitter, one
        /// batch at a time. Handing an event to a stream wakes its consumer, which costs
        /// microseconds; this way a burst costs one wake-up instead of one per event, and none
        /// of them on the emitter (a flow emits several events per step).
        case batched
    }

    /// Where one subscriber's events go.
    @usableFromInline struct Sink: Sendable {
        @usableFromInline let yield: @Sendable (Event) -> Void
        @usableFromInline let finish: @Sendable () -> Void
    }

    @usableFromInline struct Subscriber: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let sink: Sink
        /// Batched delivery only: the events its delivery task has not handed on yet.
        @usableFromInline var pending: [Event] = []
        /// True while a delivery task owns this subscriber's batches; at most one at a time, so
        /// each subscriber gets its events in order.
        @usableFromInline var delivering = false
    }

    @usableFromInline struct State: Sendable {
        var nextID = 0
        @usableFromInline var subscribers: [Subscriber] = []
        @usableFromInline var finished = false
    }

    @usableFromInline let delivery: Delivery
    @usableFromInline let state = Protected(State())
    /// Read without the lock so that emitting with no subscriber is a single atomic load.
    @usableFromInline let subscriberCount = Atomic<Int>(0)

    package init(delivery: Delivery) { self.delivery = delivery }

    /// Ends every stream, so that `for await` loops finish. Delivery tasks hold the broadcaster,
    /// so nothing is pending by now.
    deinit { finish() }

    /// True while someone subscribes: lets callers skip work only an event would need.
    @inlinable public var isObserved: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

    /// A stream of every event emitted from now on, until its consumer stops iterating.
    package func subscribe() -> AsyncStream<Event> { subscribe { $0 } }

    /// Like ``subscribe()``, each event passed through `transform` (called on delivery).
    package func subscribe<Element: Sendable>(
        _ transform: @escaping @Sendable (Event) -> Element
    ) -> AsyncStream<Element> {
        subscribe(buffering: .unbounded, dropped: {}, transform)
    }

    /// Like ``subscribe()``, but the stream holds at most `limit` events its consumer has not
    /// taken yet; past that, newer events are dropped and `dropped` is called for each. For a
    /// consumer slower than the emitters (one that encodes every event for a socket): its
    /// memory stays bounded, and it learns that it missed events, to catch up some other way.
    package func subscribe(limit: Int, dropped: @escaping @Sendable () -> Void) -> AsyncStream<Event> {
        subscribe(buffering: .bufferingOldest(limit), dropped: dropped) { $0 }
    }

    private func subscribe<Element: Sendable>(
        buffering: AsyncStream<Element>.Continuation.BufferingPolicy, dropped: @escaping @Sendable () -> Void,
        _ transform: @escaping @Sendable (Event) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffering)
        let sink = Sink(
            yield: { if case .dropped = continuation.yield(transform($0)) { dropped() } },
            finish: { continuation.finish() })
        guard let id = add(sink) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// Hands `event` to every subscriber; `event` is only built, under the lock, when someone
    /// subscribes.
    @inlinable public func emit(_ event: @autoclosure () -> Event) {
        guard isObserved else { return }
        publish { CollectionOfOne(event()) }
    }

    /// Hands `events`, in order and together, to every subscriber; `events` is only built, under
    /// the lock, when someone subscribes.
    @inlinable public func emit(contentsOf events: @autoclosure () -> [Event]) {
        guard isObserved else { return }
        publish(events)
    }

    /// Ends every stream after the events already emitted; later events go nowhere and later
    /// subscriptions end at once.
    package func finish() {
        let sinks = state.withLock { state -> [Sink] in
            state.finished = true
            subscriberCount.store(0, ordering: .relaxed)
            // A subscriber with a delivery task under way is ended by that task, once it has
            // handed on the last batch.
            let idle = state.subscribers.filter { !$0.delivering }
            state.subscribers.removeAll { !$0.delivering }
            return idle.map(\.sink)
        }
        // Outside the lock: ending a stream runs its `onTermination`, which takes the lock.
        for sink in sinks { sink.finish() }
    }

    @inlinable func publish<Events: Sequence<Event>>(_ events: () -> Events) {
        let idle = state.withLock { state -> [Int] in
            guard !state.finished, !state.subscribers.isEmpty else { return [] }
            let events = events()
            switch delivery {
            case .immediate:
                // `yield` on an unbounded stream only appends (and wakes a waiting consumer).
                for subscriber in state.subscribers {
                    for event in events { subscriber.sink.yield(event) }
                }
                return []
            case .batched:
                var idle: [Int] = []
                for index in state.subscribers.indices {
                    // One at a time: `append(contentsOf:)` a generic sequence (one event comes as
                    // a `CollectionOfOne`) ran unspecialized library code (counted, observed-step:
                    // about 580 instructions less per step of two events).
                    for event in events { state.subscribers[index].pending.append(event) }
                    if !state.subscribers[index].delivering {
                        state.subscribers[index].delivering = true
                        idle.append(state.subscribers[index].id)
                    }
                }
                return idle
            }
        }
        for id in idle {
            Task.detached { [self] in deliver(to: id) }
        }
    }

    /// Hands a subscriber its pending events, batch after batch, until none is left. Inlinable
    /// like `emit`: delivery runs once per batch and shares the emitters' cores.
    @inlinable func deliver(to id: Int) {
        while true {
            switch takeBatch(of: id) {
            case .batch(let events, let sink): for event in events { sink.yield(event) }
            case .idle: return
            case .ended(let sink): return sink.finish()
            }
        }
    }

    @usableFromInline enum Batch {
        case batch([Event], Sink)
        /// Nothing pending: the subscriber is idle (or gone) again.
        case idle
        /// Nothing pending and the broadcaster finished: end the stream.
        case ended(Sink)
    }

    @inlinable func takeBatch(of id: Int) -> Batch {
        state.withLock { state in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return .idle }
            let subscriber = state.subscribers[index]
            guard subscriber.pending.isEmpty else {
                state.subscribers[index].pending = []
                return .batch(subscriber.pending, subscriber.sink)
            }
            guard !state.finished else {
                state.subscribers.remove(at: index)
                return .ended(subscriber.sink)
            }
            state.subscribers[index].delivering = false
            return .idle
        }
    }

    /// The new subscriber's id, or nil once finished.
    private func add(_ sink: Sink) -> Int? {
        state.withLock { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append(Subscriber(id: state.nextID, sink: sink))
            subscriberCount.store(state.subscribers.count, ordering: .relaxed)
            return state.nextID
        }
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.subscribers.removeAll { $0.id == id }
            if !state.finished { subscriberCount.store(state.subscribers.count, ordering: .relaxed) }
        }
    }
}
