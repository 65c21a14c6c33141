/// Collects a stream's elements from the moment it is made (the stream is subscribed before
/// `init` returns, so nothing sent after it is missed); stops listening when released.
public final class StreamLog<Element: Sendable>: Sendable {
    private let recorder = Recorder<Element>()
    private let task: Task<Void, Never>

    /// Starts collecting `stream`.
    public init(_ stream: AsyncStream<Element>) {
        let recorder = recorder
        task = Task { for await element in stream { recorder.record(element) } }
    }

    deinit { task.cancel() }

    /// The elements received so far, in order.
    public var events: [Element] { recorder.all }
}
