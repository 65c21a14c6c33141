import ConsoleProtocol
import DashboardKit
import TaskFlow

/// A program served by a `ConsoleServer`, seen through its console connection, as a flow
/// source: the dashboard shows its flows, queues and store as it would a local run's, and its
/// keys act on the program (every command's outcome in the status line). The flows are the
/// program's: `q` leaves them running (``WatchedSource``).
final class RemoteSource: WatchedSource {
    /// The program's title.
    let name: String
    /// The program's job queues, when it serves any.
    let jobQueues: (any JobQueueSource)?
    /// The program's job store, when it serves one.
    let jobStore: (any JobStoreSource)?
    /// Who the program is.
    var hello: ServerHello { feed.hello }
    private let initial: ManagerSnapshot
    private let feed: RemoteFeed
    private let connection: any ConsoleConnection

    /// Follows the program on `connection` from its first snapshot on: every message is read
    /// as it comes, and held until the dashboard takes it.
    init(_ connection: any ConsoleConnection) {
        let snapshot = connection.snapshot
        let feed = RemoteFeed(hello: connection.hello, connection: connection, snapshotTime: snapshot.time)
        self.connection = connection
        self.feed = feed
        name = connection.hello.title
        initial = snapshot.manager(origin: feed.clock.origin)
        jobQueues = snapshot.queues.map { RemoteQueues(queues: $0.map(\.core), jobEvents: feed.jobs, commands: feed.commands) }
        jobStore = snapshot.store.map { RemoteStore(name: $0, changes: feed.storeChanges, commands: feed.commands) }
        feed.learn(initial.flows.map(\.info.id))
        let messages = connection.messages
        Task {
            for await message in messages { feed.take(message) }
            await feed.closed()
        }
    }

    /// Why the connection ended, once it did: the one line `taskflow attach` ends with.
    var endLine: String? { feed.endLine }

    func updates() -> AsyncStream<SourceUpdate> { feed.updates.take() }

    /// The flow events of ``updates()``, which has one consumer: the dashboard takes either.
    func events() -> AsyncStream<TimedFlowEvent> {
        let updates = updates()
        return AsyncStream { continuation in
            let task = Task {
                for await update in updates {
                    if case .event(let event) = update { continuation.yield(event) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The program's flows when attaching. The dashboard takes it right after subscribing,
    /// before any event is applied; the events that follow it are held since.
    func snapshot() -> ManagerSnapshot { initial }

    /// A handle per flow of the program, from the snapshot's on; finishes once the connection
    /// ended.
    @MainActor func start() -> AsyncStream<FlowHandle> { feed.handles.take() }

    /// The user left: closes the connection; the program goes on.
    func shutDown() async {
        feed.detach()
        await connection.close()
    }
}
