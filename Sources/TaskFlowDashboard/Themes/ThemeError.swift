/// A theme that cannot be used, with where the problem is: `Themes/x.toml:12: 'status.running':
/// unknown colour "gren"`. Reported on one line before the screen starts.
public struct ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The theme file (or the name asked for, when no file was found).
    public let file: String
    /// The 1-based line, when known.
    public let line: Int?
    /// The key at fault (`status.running.fg`), when there is one.
    public let key: String?
    /// What is wrong.
    public let message: String

    /// Describes a problem.
    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        let subject = key.map { " key '\($0)':" } ?? ""
        return "theme \(location):\(subject) \(message)"
    }
}
