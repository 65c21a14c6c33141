import ConsoleProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TaskFlow
import TaskFlowSupport

/// Serves a program's flows, job queues and job store on a Unix-domain socket, so that
/// `taskflow attach` shows them live from any terminal of the same user and its keys act on
/// them (cancel, undo, retry, pause). A swift-service-lifecycle `Service`:
///
/// ```swift
/// let console = ConsoleServer(manager: manager, queues: [uploads], store: store)
/// try await console.run()     // until cancelled or a graceful shutdown
/// console.path                // $XDG_RUNTIME_DIR/taskflow/<pid>.sock, else /tmp/taskflow-<uid>/<pid>.sock
/// ```
///
/// What it guarantees:
/// - **Owner only.** The socket's folder is created 0700, and an existing one that is a
///   symbolic link, another user's, or writable by group or others is refused; the socket is
///   0600; each client's uid is read from the kernel (`SO_PEERCRED`) and anyone but this user
///   and root is disconnected before anything is sent.
/// - **Free while nobody watches.** The manager is not subscribed while no client is attached.
/// - **Bounded.** A client that reads slowly has events dropped (it gets a fresh snapshot when
///   it catches up), one that stops reading or sends what is not the protocol is cut off; the
///   program never waits for a client and holds at most ``ConsoleLimits/outboundBytes`` per client.
/// - **Clean exit.** On cancellation or a graceful shutdown, clients get `bye` and the socket
///   file is removed.
///
/// The protocol is documented in `PROTOCOL.md` beside this module's sources.
public final class ConsoleServer: Service, Sendable {
    /// The socket's path.
    public let path: String
    private let feed: ConsoleFeed
    private let runner: CommandRunner
    private let limits: ConsoleLimits
    private let logger: Logger
    private let recordingPath: String?
    private let hub: ClientHub
    private let listening = Protected(false)

    /// A console for `manager`, its `queues` and `store` (both optional), on `path` (by default
    /// ``ConsoleServer`` picks `$XDG_RUNTIME_DIR/taskflow/<pid>.sock`, else
    /// `/tmp/taskflow-<uid>/<pid>.sock`). `title` names the program to clients (the process name
    /// by default); a `readOnly` console refuses every command that changes the program;
    /// `recording`, a file path, records the whole session there as the protocol's JSON lines.
    public init<State>(
        manager: TaskFlowManager<State>, queues: [JobQueue] = [], store: (any JobStoreSource)? = nil, path: String? = nil,
        title: String? = nil, readOnly: Bool = false, recording: String? = nil, limits: ConsoleLimits = ConsoleLimits(),
        logger: Logger = Logger(label: "taskflow.console")
    ) {
        let queueSource: (any JobQueueSource)? = queues.isEmpty ? nil : JobQueueList(queues)
        self.path = path ?? ConsoleLocation.defaultPath()
        feed = ConsoleFeed(
            manager: manager, queues: queueSource, store: store, title: title ?? ProcessInfo.processInfo.processName,
            readOnly: readOnly)
        runner = CommandRunner(manager: manager, queues: queueSource, store: store, readOnly: readOnly)
        self.limits = limits
        self.logger = logger
        recordingPath = recording
        hub = ClientHub(feed: feed)
    }

    /// Listens until the task is cancelled or the service group shuts down gracefully, then says
    /// `bye` to every client and removes the socket. Throws ``ConsoleServerError`` when the
    /// socket's folder is unsafe or another console serves the path, before listening.
    public func run() async throws {
        try await SocketFolder.prepare(socketPath: path)
        let recorder = try recordingPath.map { try SessionRecorder(path: $0) }
        let server = try await bind()
        recorder?.record(feed)
        listening.withLock { $0 = true }
        logger.info("console serving on \(path)")
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await server.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            server.close(promise: nil)
        }
        await sayGoodbye()
        unlink(path)
        listening.withLock { $0 = false }
        for problem in recorder?.close() ?? [] { logger.warning("\(problem)") }
        logger.info("console on \(path) closed")
    }

    /// Whether the socket accepts connections now.
    package var isListening: Bool { listening.withLock { $0 } }

    /// Whether the manager is subscribed now (only while a client is attached).
    package var isSubscribed: Bool { hub.isSubscribed }

    /// The bytes waiting to be sent to each open connection.
    package func outboundBytes() async -> [Int] {
        var sizes: [Int] = []
        for channel in hub.channels {
            if let size = try? await channel.getOption(.bufferedWritableBytes).get() { sizes.append(size) }
        }
        return sizes
    }

    private func bind() async throws -> any Channel {
        let hub = hub, feed = feed, runner = runner, limits = limits, logger = logger
        let marks = ChannelOptions.Types.WriteBufferWaterMark(low: limits.outboundBytes / 2, high: limits.outboundBytes)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.writeBufferWaterMark, value: marks)
            .childChannelInitializer { channel in
                PeerCredentials.of(channel).flatMap { peer in
                    Self.admit(channel, peer: peer, hub: hub, limits: limits, logger: logger) { id in
                        ConnectionHandler(id: id, hub: hub, feed: feed, runner: runner, limits: limits, logger: logger)
                    }
                }
            }
            .bind(unixDomainSocketPath: path).get()
        // The folder is 0700 already; this closes the socket to anyone who gets past it.
        chmod(path, 0o600)
        return channel
    }

    /// Adds the connection's handler if the peer may watch and a slot is free; closes it
    /// otherwise, before anything is sent (a refused client learns why in a `refused` line only
    /// when it is this user's: a stranger is told nothing).
    private static func admit(
        _ channel: any Channel, peer: PeerCredentials, hub: ClientHub, limits: ConsoleLimits, logger: Logger,
        handler: @escaping (Int) -> ConnectionHandler
    ) -> EventLoopFuture<Void> {
        guard peer.isAllowed else {
            logger.warning("console refused a connection from uid \(peer.uid) (pid \(peer.pid)): only uid \(getuid()) and root may attach")
            return channel.close().flatMapThrowing { throw ChannelError.ioOnClosedChannel }
        }
        guard let id = hub.accept(channel, limit: limits.maxClients) else {
            logger.warning("console refused a connection: \(limits.maxClients) clients are attached already")
            let refusal = (try? MessageCoding.line(ServerMessage.refused(RefusedMessage(reason: "too many clients (\(limits.maxClients))")))) ?? Data()
            return channel.writeAndFlush(ByteBuffer(bytes: refusal)).flatMap { channel.close() }
        }
        return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler(id)) }
    }

    private func sayGoodbye() async {
        guard let bye = try? MessageCoding.line(ServerMessage.bye(ByeMessage(reason: "the program's console is shutting down")))
        else { return }
        for channel in hub.close() {
            try? await channel.writeAndFlush(ByteBuffer(bytes: bye)).get()
            try? await channel.close()
        }
    }
}
