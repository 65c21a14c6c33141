import ConsoleProtocol
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A connection to a program's console: the handshake done, the program's messages as a
/// stream, and commands with their replies. What `taskflow attach` is built on.
///
/// ```swift
/// let client = try await ConsoleClient.connect(path: path)
/// let origin = ContinuousClock.Instant.wire(-client.snapshot.time, after: .now)  // the program's feed's start, here
/// model.adopt(client.snapshot.manager(origin: origin), at: .zero, origin: .now)  // then apply what follows
/// for await message in client.messages { … }              // flow, job, storeChange, snapshot (resync), bye
/// let reply = try await client.send(.cancel(FlowID(3)))   // reply.ok, reply.message
/// ```
package final class ConsoleClient: Sendable {
    /// The socket.
    package let path: String
    /// Who the program is.
    package let hello: ServerHello
    /// Everything it watched when the client attached. Events in ``messages`` apply on top.
    package let snapshot: SnapshotMessage
    /// What the program sends after the first snapshot, in order: `flow`, `job` and
    /// `storeChange` events, a `snapshot` again (with `missed`) after the client fell behind,
    /// and last, perhaps, `bye`. Replies go to ``send(_:)`` instead. Finishes when the
    /// connection ends. One consumer.
    package let messages: AsyncStream<ServerMessage>
    private let channel: any Channel
    private let inbox: ClientInbox
    private let lastID = Atomic<Int>(0)

    private init(path: String, hello: ServerHello, snapshot: SnapshotMessage, channel: any Channel, inbox: ClientInbox) {
        self.path = path
        self.hello = hello
        self.snapshot = snapshot
        self.channel = channel
        self.inbox = inbox
        messages = inbox.messages
    }

    /// Connects to the console at `path` and completes the handshake: reads the program's
    /// hello, checks its version (another major → ``ConsoleClientError/versionMismatch(_:)``
    /// naming both), says hello as `client`, and reads the first snapshot. Throws a
    /// ``ConsoleClientError`` saying what is wrong with the path, or that the program did not
    /// finish the handshake within `timeout`.
    package static func connect(
        path: String, client: String = "taskflow attach", timeout: Duration = .seconds(5),
        lineLimit: Int = LineFramer.defaultLimit
    ) async throws -> ConsoleClient {
        try checkSocket(at: path)
        let inbox = ClientInbox()
        let channel = try await open(path, inbox: inbox, lineLimit: lineLimit)
        // Closing the channel ends the inbox, which fails the handshake's wait.
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            inbox.end(.timedOut(path: path))
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            let hello = try await handshake(inbox: inbox, channel: channel, client: client)
            let snapshot: SnapshotMessage
            switch try await inbox.nextHandshakeMessage() {
            case .snapshot(let first): snapshot = first
            // The program cut the handshake off (a hello it found too late) or refused it: why.
            case .bye(let bye): throw ConsoleClientError.closed(bye.reason)
            case .refused(let refusal): throw ConsoleClientError.refused(refusal.reason)
            default: throw ConsoleClientError.protocolError("no snapshot after the handshake")
            }
            inbox.finishHandshake()
            return ConsoleClient(path: path, hello: hello, snapshot: snapshot, channel: channel, inbox: inbox)
        } catch {
            try? await channel.close()
            // The timer (or the program) may close the channel while the hello is being
            // written: the reason the inbox recorded says what happened, the write's error not.
            guard error is ChannelError, let reason = inbox.endReason else { throw error }
            throw reason
        }
    }

    /// Carries out `command` in the program; returns its reply (`ok`, or why not in `message`).
    /// Throws ``ConsoleClientError/closed(_:)`` when the connection ends first.
    package func send(_ command: ConsoleCommand) async throws -> ReplyMessage {
        let id = lastID.wrappingAdd(1, ordering: .relaxed).newValue
        let line = try MessageCoding.line(ClientMessage.command(CommandMessage(id: id, command: command)))
        let channel = channel
        return try await inbox.reply(to: id) { channel.writeAndFlush(ByteBuffer(bytes: line), promise: nil) }
    }

    /// Closes the connection; ``messages`` finishes.
    package func close() async {
        try? await channel.close()
    }

    private static func handshake(inbox: ClientInbox, channel: any Channel, client: String) async throws -> ServerHello {
        switch try await inbox.nextHandshakeMessage() {
        case .hello(let hello):
            if let mismatch = ProtocolVersion.mismatch(peer: hello.protocolVersion, peerName: "program", ownName: "client") {
                throw ConsoleClientError.versionMismatch(mismatch)
            }
            let line = try MessageCoding.line(ClientMessage.hello(ClientHello(client: client)))
            try await channel.writeAndFlush(ByteBuffer(bytes: line))
            return hello
        case .refused(let refusal):
            throw ConsoleClientError.refused(refusal.reason)
        default:
            throw ConsoleClientError.protocolError("the first message is not hello")
        }
    }

    /// Tells a missing path or a file that is no socket from a console that does not answer.
    private static func checkSocket(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == EACCES { throw ConsoleClientError.notYours(path: path) }
            throw ConsoleClientError.noConsole(path: path)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw ConsoleClientError.notASocket(path: path) }
    }

    private static func open(_ path: String, inbox: ClientInbox, lineLimit: Int) async throws -> any Channel {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ClientLineHandler(inbox: inbox, lineLimit: lineLimit))
                    }
                }
                .connect(unixDomainSocketPath: path).get()
        } catch let error as IOError {
            switch error.errnoCode {
            case ECONNREFUSED: throw ConsoleClientError.stale(path: path)
            case EACCES, EPERM: throw ConsoleClientError.notYours(path: path)
            case ENOENT: throw ConsoleClientError.noConsole(path: path)
            default: throw ConsoleClientError.connectFailed(path: path, reason: String(cString: strerror(error.errnoCode)))
            }
        }
    }
}
