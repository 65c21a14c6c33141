import DequeModule

/// A subscriber's hold on its ``Mailbox``, kept by its stream's closures alone.
///
/// - Its consumer takes events from a buffer of its own, refilled with everything pending at
///   once (``Mailbox/refill(_:orWait:)``).
/// - When the consumer releases the stream (it broke out of its loop, and nothing else keeps
///   the stream), this goes with it and unsubscribes, so nothing keeps collecting events for it.
/// - When the consumer's task is cancelled, ``cancel()`` ends the stream at once.
/// - It holds the broadcaster weakly: a stream must not keep the engine or queue it listens to
///   alive.
@usableFromInline final class Subscription<Event: Sendable>: Sendable {
    @usableFromInline let mailbox: Mailbox<Event>
    /// Events taken from the mailbox, next first. Only the consumer touches it (one task at a
    /// time iterates a stream), so its lock is never contended.
    @usableFromInline let taken = Protected(Deque<Event>())
    private let id: Int?
    private weak let broadcaster: Broadcaster<Event>?

    /// Subscribes `mailbox` to `broadcaster` (a mailbox subscribed after the broadcaster
    /// finished is finished at once).
    @usableFromInline init(_ mailbox: Mailbox<Event>, subscribedTo broadcaster: Broadcaster<Event>) {
        self.mailbox = mailbox
        self.broadcaster = broadcaster
        id = broadcaster.add(mailbox)
    }

    deinit { leave() }

    /// What ``next()`` found without waiting.
    @usableFromInline enum Take {
        case event(Event)
        case ended
        case empty
    }

    /// The next event; nil once the subscription ended.
    @inlinable func next() async -> Event? {
        switch take(orWait: nil) {
        case .event(let event): return event
        case .ended: return nil
        case .empty: return await wait()
        }
    }

    /// Waits for the next post or the end. Out of line: a consumer that finds events waiting
    /// does not allocate this frame.
    @inlinable @inline(never) func wait() async -> Event? {
        await withUnsafeContinuation { consumer in
            switch take(orWait: consumer) {
            case .event(let event): consumer.resume(returning: event)
            case .ended: consumer.resume(returning: nil)
            // Waits: a post hands it an event, or the end resumes it with nil.
            case .empty: break
            }
        }
    }

    /// The next event taken, refilling from the mailbox when none is left; if the mailbox has
    /// none either, `consumer` (if any) waits there.
    @inlinable func take(orWait consumer: UnsafeContinuation<Event?, Never>?) -> Take {
        taken.withLock { taken in
            if let event = taken.popFirst() { return .event(event) }
            switch mailbox.refill(&taken, orWait: consumer) {
            case .refilled:
                // Sound: a refill leaves at least one event in the buffer.
                return .event(taken.popFirst()!)
            case .ended: return .ended
            case .empty: return .empty
            }
        }
    }

    /// The consumer's task was cancelled: its stream ends now.
    @usableFromInline func cancel() {
        mailbox.cancel()
        leave()
    }

    private func leave() {
        guard let id else { return }
        broadcaster?.unsubscribe(id)
    }
}
