import DequeModule
import TaskFlowSupport

/// An observer's mailbox: events are queued in the order the boot forwards them, and one task
/// per observer hands them to its closure one at a time, so the closure sees every event, in
/// order, without ever running under the boot's lock (it may call `send` itself).
///
/// Not an `AsyncStream` per observer: a stream wakes its consumer once per event, which capped
/// forwarding at about a quarter of the target rate in the benchmark. Here the delivery task
/// takes everything queued in one go, so a burst costs one wake-up and one lock per event on
/// the sending side.
final class BootObserver<Event: Sendable>: Sendable {
    private struct Mailbox {
        var queue = Deque<Event>()
        /// The delivery task, while it waits for events.
        var waiter: CheckedContinuation<Void, Never>?
        /// No event will be queued any more.
        var isClosed = false

        /// The waiting delivery task, if any, to resume once the lock is released.
        mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
            defer { waiter = nil }
            return waiter
        }
    }

    let title: String
    private let mailbox = Protected(Mailbox())
    private let handler: @Sendable (Event) async -> Void

    init(title: String, handler: @escaping @Sendable (Event) async -> Void) {
        self.title = title
        self.handler = handler
    }

    /// Hands the queued events to the handler, in order, until the mailbox is closed and empty.
    /// The boot starts one such task per observer.
    func deliver() async {
        while let batch = await nextBatch() {
            for event in batch { await handler(event) }
        }
    }

    /// Queues events for the observer; never blocks.
    func forward(_ event: Event) {
        wake(mailbox.withLock { mailbox in
            mailbox.queue.append(event)
            return mailbox.takeWaiter()
        })
    }

    /// Queues several events at once, in order.
    func forward(contentsOf events: Deque<Event>) {
        guard !events.isEmpty else { return }
        wake(mailbox.withLock { mailbox in
            mailbox.queue.append(contentsOf: events)
            return mailbox.takeWaiter()
        })
    }

    /// No more events: `deliver()` returns once it has handed over what is queued.
    func close() {
        wake(mailbox.withLock { mailbox in
            mailbox.isClosed = true
            return mailbox.takeWaiter()
        })
    }

    private func wake(_ waiter: CheckedContinuation<Void, Never>?) {
        waiter?.resume()
    }

    /// How often an idle delivery task yields before it sleeps, giving senders a moment to
    /// queue more so that a steady trickle of events does not wake a thread per event.
    private static var yieldsBeforeSleeping: Int { 1 }

    /// Everything queued, waiting for something if nothing is; nil once closed and drained.
    private func nextBatch() async -> Deque<Event>? {
        var yields = 0
        while true {
            let batch: Deque<Event>? = mailbox.withLock { mailbox in
                guard mailbox.queue.isEmpty else {
                    defer { mailbox.queue = [] }
                    return mailbox.queue
                }
                return mailbox.isClosed ? [] : nil
            }
            if let batch { return batch.isEmpty ? nil : batch }
            if yields < Self.yieldsBeforeSleeping {
                yields += 1
                await Task.yield()
                continue
            }
            yields = 0
            await withCheckedContinuation { continuation in
                let resumeNow = mailbox.withLock { mailbox in
                    if !mailbox.queue.isEmpty || mailbox.isClosed { return true }
                    mailbox.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }
}
