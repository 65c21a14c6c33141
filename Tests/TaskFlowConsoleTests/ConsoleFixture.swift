import ConsoleProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import TaskFlow
@testable import TaskFlowConsole
import TaskFlowTestSupport
import Testing

/// A console server on a socket in a fresh temporary folder, running in a task of its own.
struct ConsoleFixture {
    let folder: String
    let server: ConsoleServer
    let task: Task<Void, any Error>

    static func temporaryFolder() -> String {
        let folder = "/tmp/tfc-\(UUID().uuidString.prefix(8))"
        mkdir(folder, 0o700)
        return folder
    }

    init<State>(
        manager: TaskFlowManager<State>, queues: [JobQueue] = [], readOnly: Bool = false, limits: ConsoleLimits = .patient(),
        folder: String = ConsoleFixture.temporaryFolder()
    ) async throws {
        self.folder = folder
        server = ConsoleServer(
            manager: manager, queues: queues, path: "\(folder)/console/test.sock", title: "Fixture", readOnly: readOnly,
            limits: limits, logger: Logger(label: "test.console"))
        let server = server
        task = Task { try await server.run() }
        let listening = await eventually { server.isListening }
        try #require(listening, "the console listens")
    }

    var path: String { server.path }

    /// A client of this console. Its handshake may take up to a minute, a bound only a hang
    /// reaches: the default five seconds ran out in the full suite on two loaded cores.
    func connect() async throws -> ConsoleClient {
        try await ConsoleClient.connect(path: path, timeout: .seconds(60))
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(atPath: folder)
    }
}

extension ConsoleLimits {
    /// The default limits (or the buffer and stall bounds given), with a minute for a client's
    /// hello, as long as ``ConsoleFixture/connect()`` waits for the handshake: the client's task
    /// needs a thread between the program's hello and its own, and in the full suite on two
    /// loaded cores it waited past the default ten seconds and was cut off.
    static func patient(outboundBytes: Int = 1 << 20, stallTimeout: Duration = .seconds(30)) -> ConsoleLimits {
        ConsoleLimits(outboundBytes: outboundBytes, stallTimeout: stallTimeout, handshakeTimeout: .seconds(60))
    }
}

/// A connection that speaks raw bytes: what a broken, hostile or stalled client sends.
final class RawConnection: Sendable {
    let channel: any Channel
    let received: AsyncStream<String>
    let closed: EventLoopFuture<Void>

    init(path: String, autoRead: Bool = true) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        received = stream
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: autoRead)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineCollector(continuation))
                }
            }
            .connect(unixDomainSocketPath: path).get()
        closed = channel.closeFuture
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    func sayHello(protocol version: String = "1.0") async throws {
        try await send(#"{"type":"hello","protocol":"\#(version)","client":"raw"}"# + "\n")
    }

    /// Lines until the connection closes, or until `until` is found.
    func lines(until stop: (String) -> Bool = { _ in false }) async -> [String] {
        var lines: [String] = []
        for await line in received {
            lines.append(line)
            if stop(line) { break }
        }
        return lines
    }

    var isClosed: Bool { !channel.isActive }
}

private final class LineCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let continuation: AsyncStream<String>.Continuation
    private var framer = LineFramer(limit: 64 << 20)

    init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        framer.append(unwrapInboundIn(data).readableBytesView)
        while let line = try? framer.nextLine() { continuation.yield(String(decoding: line, as: UTF8.self)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }
}

extension ServerMessage {
    var flowEvent: FlowEvent? { flow?.event.core }
}

extension AsyncStream<ServerMessage> {
    /// The first message that `match` accepts, skipping others; nil if the stream ends first.
    func first<T>(_ match: (ServerMessage) -> T?) async -> T? {
        for await message in self { if let found = match(message) { return found } }
        return nil
    }
}
