/// How much a log line matters: a watcher colours it, a server logs it at that level.
public enum LogLevel: String, Sendable, Hashable, Codable {
    /// Normal progress.
    case info
    /// Something was undone, stopped or is being retried.
    case warning
    /// Something failed.
    case error
}

/// One line of an event log, as watchers show it: what a job store's changes read as
/// (``JobStoreSource/changeLog()``), and each engine event's sentence in the dashboard.
public struct LogLine: Sendable, Hashable {
    /// The text, e.g. `#3 "Sync" step "Push" failed: HTTP 409`.
    public let text: String
    /// How much it matters.
    public let level: LogLevel

    /// A line of `text` at `level`.
    public init(text: String, level: LogLevel) {
        self.text = text
        self.level = level
    }
}
