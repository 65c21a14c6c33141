import InMemoryLogging
import Logging

/// A logger whose records a test reads back (swift-log's `InMemoryLogHandler`), from `level` up.
public struct CapturedLog: Sendable {
    /// One record.
    public typealias Entry = InMemoryLogHandler.Entry

    private let handler: InMemoryLogHandler
    /// The logger to hand to the code under test.
    public let logger: Logger

    /// Captures every record at `level` or above.
    public init(level: Logger.Level = .trace) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        self.handler = handler
        logger = Logger(label: "taskflow.tests", factory: { _ in handler })
    }

    /// The records so far, in order.
    public var entries: [Entry] { handler.entries }

    /// The records whose message starts with `prefix`.
    public func entries(startingWith prefix: String) -> [Entry] {
        entries.filter { $0.message.description.hasPrefix(prefix) }
    }
}

extension InMemoryLogHandler.Entry {
    /// Metadata value `key` as text, nil when the record has none.
    public subscript(key: String) -> String? { metadata[key].map { "\($0)" } }
}
