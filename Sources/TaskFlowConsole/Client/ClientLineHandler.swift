import ConsoleProtocol
import NIOCore

/// Reads the program's lines on the client's connection and hands each message to the inbox.
final class ClientLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let inbox: ClientInbox
    private var framer: LineFramer

    init(inbox: ClientInbox, lineLimit: Int) {
        self.inbox = inbox
        framer = LineFramer(limit: lineLimit)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        framer.append(unwrapInboundIn(data).readableBytesView)
        do {
            while let line = try framer.nextLine() {
                guard !line.isEmpty else { continue }
                inbox.receive(try MessageCoding.serverMessage(line))
            }
        } catch let error as DecodingError {
            fail(error.oneLine, context: context)
        } catch {
            fail("\(error)", context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.end(.closed("connection closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        inbox.end(.closed("\(error)"))
        context.close(promise: nil)
    }

    private func fail(_ message: String, context: ChannelHandlerContext) {
        inbox.end(.protocolError(message))
        context.close(promise: nil)
    }
}
