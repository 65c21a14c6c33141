/// A subscriber's hold on its ``Mailbox``, kept by its stream's closures alone.
///
/// - When the consumer releases the stream (it broke out of its loop, and nothing else keeps
///   the stream), this goes with it and unsubscribes, so nothing keeps collecting events for it.
/// - When the consumer's task is cancelled, ``cancel()`` ends the stream at once.
/// - It holds the broadcaster weakly: a stream must not keep the engine or queue it listens to
///   alive.
@usableFromInline final class Subscription<Event: Sendable>: Sendable {
    @usableFromInline let mailbox: Mailbox<Event>
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
