import ConsoleProtocol
@testable import DashboardKit
import Foundation
import TaskFlow
import TaskFlowConsole
import TaskFlowTestSupport
import Testing
@testable import taskflow

/// `taskflow attach`'s source: a program's console, seen through a real `ConsoleServer` and
/// `ConsoleClient` in this process, or through a stand-in connection that plays given messages.
@MainActor
@Suite("Attach: the remote source")
struct RemoteSourceTests {
    private func session() -> DashboardSession {
        DashboardSession(scenarioName: "test", theme: .fallback, themes: ThemeCatalog(directories: []))
    }

    /// A console on a fresh socket, serving `manager` until the returned task is cancelled.
    private func serve(_ manager: TaskFlowManager<Void>) async throws -> (path: String, server: Task<Void, any Error>) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attach-\(UUID().uuidString.prefix(8))").path
        // A minute for the client's hello, as long as the tests' clients wait for the handshake: on
        // two loaded cores a client's task waited past the default ten seconds for a thread.
        let limits = ConsoleLimits(handshakeTimeout: .seconds(60))
        let console = ConsoleServer(manager: manager, path: "\(folder)/p.sock", title: "Served", limits: limits)
        let server = Task { try await console.run() }
        try #require(await eventually { console.isListening }, "the console listens")
        return (console.path, server)
    }

    @Test func aProgramsFlowShowsAndTheCancelKeyCancelsItInTheProgram() async throws {
        let manager = TaskFlowManager()
        let flow = manager.execute(title: "Hold the door") { flow in
            try await flow.task(title: "Wait") { step in
                while !step.isCancelled { try await Task.sleep(for: .milliseconds(10)) }
                throw CancellationError()
            }
        }
        try #require(await eventually { manager.snapshot().flows.first?.status.phase == .running })
        let (path, server) = try await serve(manager)
        defer { server.cancel() }
        let source = RemoteSource(try await ConsoleClient.connect(path: path, timeout: .seconds(60)))
        let session = session()
        session.start(source)
        #expect(session.model.live.flow(flow.id)?.phase == .running, "the flow started before attaching shows")
        session.handle(.character("c"))
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(flow.status.phase == .cancelled, "cancelled in the program")
        try #require(await eventually { session.model.live.flow(flow.id)?.phase == .cancelled }, "its end shows")
        // The reply comes apart from the flow's events (a task awaits it): its end may show first.
        try #require(await eventually { session.model.notice == "cancel \(flow.id): done" }, "the program's reply shows")
        session.handle(.character("u"))
        #expect(session.model.notice?.contains("only completed write flows") == true)
        session.stop()
    }

    /// Attached to a program whose flow was under way already, the dashboard shows it submitted
    /// (and its step started) before the dashboard itself started, as the program's snapshot
    /// says: not as if it had begun when the dashboard attached.
    @Test func aFlowUnderWayBeforeAttachingShowsItsOwnTimes() async throws {
        let manager = TaskFlowManager()
        let (holding, finish) = (Gate(), Gate())
        let flow = manager.execute(title: "Long import") { flow in
            try await flow.task(title: "Import", apply: { _ in
                holding.open()
                await finish.wait()
            })
        }
        await holding.wait()
        let (path, server) = try await serve(manager)
        defer { server.cancel() }
        let source = RemoteSource(try await ConsoleClient.connect(path: path, timeout: .seconds(60)))
        // Made after the source: the program's times are placed on this process's clock by the
        // snapshot's arrival, so everything that happened before the snapshot was taken falls
        // before this session's start, whatever the latency.
        let session = session()
        session.start(source)
        let row = try #require(session.model.live.flow(flow.id))
        #expect(row.queuedAt < .zero, "submitted before the dashboard started")
        #expect(row.steps.map(\.status) == [.running] && row.steps.allSatisfy { $0.startedAt < .zero && $0.startedAt >= row.queuedAt })
        session.stop()
        finish.open()
        try await flow.value
    }

    @Test func aRefusedCommandSaysWhyInTheStatusLine() async throws {
        let connection = PlayedConnection(replies: { _ in ReplyMessage(id: 1, ok: false, message: "read-only console") })
        let session = session()
        session.start(RemoteSource(connection))
        session.handle(.character("c"))
        try #require(await eventually { session.model.notice == "cancel #1 refused: read-only console" })
        session.stop()
    }

    @Test func aSnapshotMidStreamResynchronisesTheFlowsAndWarns() async throws {
        let connection = PlayedConnection()
        let session = session()
        let source = RemoteSource(connection)
        session.start(source)
        #expect(session.model.live.flow(FlowID(1))?.phase == .running)
        let later = ManagerSnapshot(
            flows: [FlowSnapshot(info: PlayedConnection.second, status: .running, currentStep: nil, progress: nil)],
            lock: LockSnapshot(mode: .write(FlowID(2)), holders: [PlayedConnection.second], queue: []), undoable: [])
        connection.play(.snapshot(SnapshotMessage(time: 2, manager: later, origin: .now, missed: 7)))
        try #require(await eventually { session.model.notice == "missed 7 events; resynchronised" })
        #expect(session.model.live.flow(FlowID(1)) == nil, "its end was among the missed events")
        #expect(session.model.live.flow(FlowID(2))?.phase == .running)
        #expect(session.model.live.log.entries.last?.level == .warning)
        session.stop()
    }

    @Test func theProgramsByeEndsTheLoopWithOneLine() async throws {
        let connection = PlayedConnection()
        let session = session()
        let source = RemoteSource(connection)
        session.start(source)
        connection.play(.flow(FlowMessage(time: 1.5, event: .statusChanged(FlowID(1), .completed))))
        connection.play(.bye(ByeMessage(reason: "the program's console is shutting down")))
        try #require(await eventually { session.exitRequest != nil }, "the loop ends")
        #expect(session.exitRequest == .quit(leftover: []))
        #expect(session.model.live.flow(FlowID(1))?.phase == .completed, "events before the bye are all in")
        #expect(source.endLine == "played (pid \(getpid())) ended the session: the program's console is shutting down")
        session.stop()
    }

    @Test func aClosedConnectionOfAProgramThatRunsSaysTheConnectionWasLost() async throws {
        let connection = PlayedConnection()
        let source = RemoteSource(connection)
        let session = session()
        session.start(source)
        connection.end()
        try #require(await eventually { session.exitRequest != nil }, "the loop ends")
        #expect(source.endLine == "connection lost: played (pid \(getpid())) closed it", "this process, the 'program', runs")
        session.stop()
    }
}

/// A connection that plays the messages a test gives it, from a program (this process) with
/// one running write flow, and answers commands with `replies`.
final class PlayedConnection: ConsoleConnection {
    static let first = FlowInfo(id: FlowID(1), title: "First", access: .write)
    static let second = FlowInfo(id: FlowID(2), title: "Second", access: .write)

    let hello = ServerHello(program: "played", pid: getpid(), title: "Played", started: Date(), readOnly: false)
    let snapshot = SnapshotMessage(
        time: 1,
        manager: ManagerSnapshot(
            flows: [FlowSnapshot(info: PlayedConnection.first, status: .running, currentStep: nil, progress: nil)],
            lock: LockSnapshot(mode: .write(FlowID(1)), holders: [PlayedConnection.first], queue: []), undoable: []),
        origin: .now)
    let messages: AsyncStream<ServerMessage>
    private let continuation: AsyncStream<ServerMessage>.Continuation
    private let replies: @Sendable (ConsoleCommand) -> ReplyMessage

    init(replies: @escaping @Sendable (ConsoleCommand) -> ReplyMessage = { _ in ReplyMessage(id: 1, ok: true) }) {
        (messages, continuation) = AsyncStream.makeStream()
        self.replies = replies
    }

    /// The program sends `message`.
    func play(_ message: ServerMessage) { continuation.yield(message) }

    /// The connection closes.
    func end() { continuation.finish() }

    func send(_ command: ConsoleCommand) async throws -> ReplyMessage { replies(command) }

    func close() async { end() }
}
