import TaskFlowSupport

/// A stream made before its one consumer comes, so that nothing yielded meanwhile is lost: a
/// program's feed is read from the moment of attaching, while the dashboard subscribes to its
/// parts once its start-up is over. ``take()`` hands the stream out once.
final class HeldStream<Element: Sendable>: Sendable {
    private let continuation: AsyncStream<Element>.Continuation
    private let stream: Protected<AsyncStream<Element>?>

    /// An empty stream, buffering everything until it is taken and read.
    init() {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        self.stream = Protected(stream)
    }

    /// The stream, the first time; an empty finished one afterwards (it has one consumer).
    func take() -> AsyncStream<Element> {
        stream.withLock { held in
            defer { held = nil }
            return held ?? AsyncStream { $0.finish() }
        }
    }

    /// Adds an element.
    func yield(_ element: Element) { continuation.yield(element) }

    /// Ends the stream after what was yielded.
    func finish() { continuation.finish() }
}
