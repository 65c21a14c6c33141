import DequeModule

/// One subscriber's events between the ``Broadcaster`` that posts them and the ``Subscription``
/// its stream takes them from: a queue, and the consumer when it waits for want of an event.
///
/// Why a queue of its own rather than an `AsyncStream` continuation's buffer: the standard
/// library's buffered stream runs unspecialized generic code on both sides, each `yield` and each
/// `next()` looking up generic type metadata at run time, about 15,000 instructions per event
/// (counted, observed-step: 40 k per step of two events, 3 allocations). This queue is
/// specialized where the broadcaster is used (everything here is inlinable), and a consumer that
/// finds events waiting takes them all at once, with one lock and no suspension.
///
/// What it guarantees: events come out in the order they were posted; after ``finish()`` the
/// consumer still gets every event posted before, then nil; after ``cancel()`` the events
/// pending are dropped and it gets nil (or, once, an event a poster had already handed it).
/// With a `limit`, at most that many events wait: a newer one is refused (``post(_:)`` says
/// `.dropped`) and the oldest are kept, so the consumer sees an unbroken prefix.
///
/// Why a batch at once: a consumer that lags behind the emitters (a console encoding every
/// event for its client) took the lock they post under once per event, and the flows' steps
/// with a reading console client went from 1.2 µs to 1.7 µs (medians of several runs); taking
/// the batch, they are back at about 1.2 µs (1.0–1.3 µs, medians of noisy runs).
@usableFromInline final class Mailbox<Event: Sendable>: Sendable {
    @usableFromInline struct State: Sendable {
        @usableFromInline var pending: Deque<Event> = []
        /// The consumer, suspended in ``Subscription/wait()`` because nothing was pending; at
        /// most one (a stream's iterator is used from one task at a time).
        @usableFromInline var consumer: UnsafeContinuation<Event?, Never>?
        /// Set by ``finish()`` (no more events will come) and ``cancel()`` (none are wanted).
        @usableFromInline var closed = false

        @inlinable init() {}
    }

    /// How a ``post(_:)`` went.
    @usableFromInline enum Posting {
        /// Queued for the consumer, which is busy or will ask.
        case queued
        /// The consumer waited for it: the poster resumes it with the event, outside its locks.
        case handedOver(UnsafeContinuation<Event?, Never>)
        /// Refused: `limit` events already wait.
        case dropped
        /// Refused: the mailbox is closed.
        case closed
    }

    /// What a ``refill(_:orWait:)`` found.
    @usableFromInline enum Refill {
        /// Events: the consumer's buffer holds them now.
        case refilled
        /// Closed, and (after a ``finish()``) emptied.
        case ended
        /// Nothing yet: the consumer given, if any, waits for the next post.
        case empty
    }

    @usableFromInline let state = Protected(State())
    /// The most events that may wait; `Int.max` for no limit.
    @usableFromInline let limit: Int
    /// Told of every event refused because `limit` were waiting.
    @usableFromInline let dropped: (@Sendable () -> Void)?

    @inlinable init(limit: Int = .max, dropped: (@Sendable () -> Void)? = nil) {
        self.limit = limit
        self.dropped = dropped
    }

    /// Queues `event`, or hands it to the consumer waiting for one (the caller resumes it).
    @inlinable func post(_ event: Event) -> Posting {
        state.withLock { state in
            if state.closed { return .closed }
            if let consumer = state.consumer {
                state.consumer = nil
                return .handedOver(consumer)
            }
            guard state.pending.count < limit else { return .dropped }
            state.pending.append(event)
            return .queued
        }
    }

    /// Moves every pending event into `buffer` (the consumer's, empty: the two swap, so the
    /// queue keeps the buffer's room and nothing is allocated), or says the mailbox ended; if
    /// neither, `consumer` (if any) waits for the next post. One lock for a whole batch: a
    /// consumer that lags behind touches what the emitters touch once per batch, not per event.
    @inlinable func refill(_ buffer: inout Deque<Event>, orWait consumer: UnsafeContinuation<Event?, Never>?) -> Refill {
        state.withLock { state in
            if !state.pending.isEmpty {
                swap(&buffer, &state.pending)
                return .refilled
            }
            if state.closed { return .ended }
            if let consumer {
                // Two waiting consumers would leave one never resumed: a stream is iterated from
                // one task at a time (a buffered `AsyncStream` traps the same way).
                precondition(state.consumer == nil, "TaskFlow: an event stream iterated from two tasks at once")
                state.consumer = consumer
            }
            return .empty
        }
    }

    /// No event will come any more: the consumer gets those pending, then nil.
    @usableFromInline func finish() {
        close(discardingPending: false)
    }

    /// No event is wanted any more (the consumer's task was cancelled): the consumer gets nil,
    /// and those pending are released.
    @usableFromInline func cancel() {
        close(discardingPending: true)
    }

    private func close(discardingPending: Bool) {
        // Released outside the lock: an event's deinit may run anything.
        var discarded: Deque<Event> = []
        let consumer = state.withLock { state in
            state.closed = true
            if discardingPending { swap(&discarded, &state.pending) }
            // A consumer waits only when nothing is pending.
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(returning: nil)
    }
}
