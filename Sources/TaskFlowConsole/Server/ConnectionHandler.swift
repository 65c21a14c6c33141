import ConsoleProtocol
import Logging
import NIOCore

/// One client's connection, on its event loop: reads lines, holds the handshake, hands
/// commands to the runner, and cuts the client off (with a logged reason, and a `bye` giving it)
/// when it sends what is not the protocol or a line over the limit, or says no hello in time;
/// one that leaves its buffer full too long is closed (a `bye` would only wait behind the rest).
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase { case greeting, joined, closing }

    private let id: Int
    private let hub: ClientHub
    private let feed: ConsoleFeed
    private let runner: CommandRunner
    private let limits: ConsoleLimits
    private let logger: Logger
    private var framer: LineFramer
    private var phase = Phase.greeting
    private var handshakeTimer: Scheduled<Void>?
    private var stallTimer: Scheduled<Void>?

    init(id: Int, hub: ClientHub, feed: ConsoleFeed, runner: CommandRunner, limits: ConsoleLimits, logger: Logger) {
        self.id = id
        self.hub = hub
        self.feed = feed
        self.runner = runner
        self.limits = limits
        var logger = logger
        logger[metadataKey: "console.client"] = "\(id)"
        self.logger = logger
        framer = LineFramer(limit: limits.maxLineBytes)
    }

    func channelActive(context: ChannelHandlerContext) {
        write(.hello(feed.hello), context: context)
        let channel = context.channel
        let timeout = limits.handshakeTimeout
        // On this loop, as every other use of the handler: the timer may change its phase.
        handshakeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            cutOff("no hello within \(timeout)", channel: channel)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        stallTimer?.cancel()
        hub.leave(id)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase != .closing else { return }
        framer.append(unwrapInboundIn(data).readableBytesView)
        do {
            while phase != .closing, let line = try framer.nextLine() {
                if !line.isEmpty { handle(line, context: context) }
            }
        } catch {
            cutOff("\(error)", channel: context.channel)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stallTimer?.cancel()
            stallTimer = nil
            hub.caughtUp(id)
        } else if stallTimer == nil {
            let channel = context.channel
            let logger = logger
            let timeout = limits.stallTimeout
            stallTimer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                guard !channel.isWritable else { return }
                logger.warning("console client cut off: it read nothing for \(timeout) while its buffer was full")
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("console client connection failed: \(error)")
        context.close(promise: nil)
    }

    private func handle(_ line: [UInt8], context: ChannelHandlerContext) {
        let message: ClientMessage
        do {
            message = try MessageCoding.clientMessage(line)
        } catch let error as UnreadableCommand {
            return write(.reply(ReplyMessage(id: error.id, ok: false, message: error.reason)), context: context)
        } catch let error as DecodingError {
            return cutOff(error.oneLine, channel: context.channel)
        } catch {
            return cutOff("\(error)", channel: context.channel)
        }
        switch (message, phase) {
        case (.hello(let hello), .greeting):
            greet(hello, context: context)
        case (.hello, _):
            break
        case (.command, .greeting):
            cutOff("a command before hello", channel: context.channel)
        case (.command(let command), _):
            execute(command, on: context.channel)
        }
    }

    private func greet(_ hello: ClientHello, context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        if let mismatch = ProtocolVersion.mismatch(peer: hello.protocolVersion, peerName: "client", ownName: "program") {
            logger.warning("console client '\(hello.client)' refused: \(mismatch)")
            phase = .closing
            return writeLast(.refused(RefusedMessage(reason: mismatch)), channel: context.channel)
        }
        logger.info("console client '\(hello.client)' attached (protocol \(hello.protocolVersion))")
        phase = .joined
        hub.join(id)
    }

    private func execute(_ command: CommandMessage, on channel: any Channel) {
        let runner = runner
        let logger = logger
        Task {
            let reply = await runner.reply(to: command.command, id: command.id)
            logger.info("console command \(command.command.name): \(reply.ok ? "done" : reply.message ?? "refused")")
            guard let line = try? MessageCoding.line(ServerMessage.reply(reply)) else { return }
            channel.writeAndFlush(ByteBuffer(bytes: line), promise: nil)
        }
    }

    /// Says why in a `bye`, logs it, and closes: the program and other clients go on.
    private func cutOff(_ reason: String, channel: any Channel) {
        // Once: a `bye` is the last message, and the handshake's timer may fire after another
        // cut-off, before the channel is closed.
        guard phase != .closing else { return }
        handshakeTimer?.cancel()
        logger.warning("console client cut off: \(reason)")
        phase = .closing
        writeLast(.bye(ByeMessage(reason: reason)), channel: channel)
    }

    /// Writes `message`, then closes once it is written (closing at once would drop it).
    private func writeLast(_ message: ServerMessage, channel: any Channel) {
        guard let line = try? MessageCoding.line(message) else { return channel.close(promise: nil) }
        channel.writeAndFlush(ByteBuffer(bytes: line)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func write(_ message: ServerMessage, context: ChannelHandlerContext) {
        guard let line = try? MessageCoding.line(message) else { return }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line)), promise: nil)
    }
}

extension TimeAmount {
    /// The same span, in whole nanoseconds.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
