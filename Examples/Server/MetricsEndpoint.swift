import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle

/// `GET /metrics` on a local port: the registry's metrics as Prometheus text, what a Prometheus
/// server scrapes. Bound before the group runs (so its port, 0 asked, is known at start); a
/// `Service` that closes it at a graceful shutdown or cancellation.
struct MetricsEndpoint: Service {
    private let channel: any Channel
    private let logger: Logger
    /// The port it listens on.
    let port: Int

    /// Listens on `host`:`port` (0: a free port).
    static func bind(host: String, port: Int, registry: PrometheusCollectorRegistry, logger: Logger) async throws
        -> MetricsEndpoint
    {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(MetricsHandler(registry: registry))
                }
            }
            .bind(host: host, port: port).get()
        return MetricsEndpoint(channel: channel, logger: logger, port: channel.localAddress?.port ?? port)
    }

    func run() async throws {
        logger.info("metrics on http://127.0.0.1:\(port)/metrics")
        let channel = channel
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}

/// Answers each request on one connection: the metrics for `GET /metrics`, 404 for the rest;
/// then closes the connection (a scrape is one request).
private final class MetricsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var request: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let request else { return }
            respond(to: request, context: context)
            self.request = nil
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let isMetrics = request.method == .GET && request.uri == "/metrics"
        let body = isMetrics ? registry.emitToBuffer() : Array("not found: try GET /metrics\n".utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: isMetrics ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: request.version, status: isMetrics ? .ok : .notFound, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
