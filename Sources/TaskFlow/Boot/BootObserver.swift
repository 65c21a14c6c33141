/// An observer's mailbox: events go into an unbounded stream in the order the boot forwards
/// them, and one task per observer hands them to its closure one at a time, so the closure sees
/// every event, in order, without ever running under the boot's lock (it may call `send` itself).
struct BootObserver<Event: Sendable>: Sendable {
    let title: String
    private let inbox: AsyncStream<Event>.Continuation
    /// Ends when the inbox is finished and drained.
    let delivery: Task<Void, Never>

    init(title: String, handler: @escaping @Sendable (Event) async -> Void) {
        self.title = title
        let (events, inbox) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.inbox = inbox
        delivery = Task {
            for await event in events { await handler(event) }
        }
    }

    /// Queues `event` for the observer; never blocks.
    func forward(_ event: Event) { inbox.yield(event) }

    /// No more events: the delivery task ends once it has handed over what is queued.
    func close() { inbox.finish() }
}
