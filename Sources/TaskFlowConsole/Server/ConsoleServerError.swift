/// Why a console could not serve, in one line naming the path.
public struct ConsoleServerError: Error, CustomStringConvertible, Sendable {
    /// The folder or socket concerned.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    /// An error about `path`.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "console: /tmp/taskflow-0 is a symbolic link; refusing to serve there".
    public var description: String { "console: \(path) \(reason)" }
}
