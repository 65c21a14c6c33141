/// One problem in a scenario file, printed as one line: `file:line:column: message`.
public struct ScenarioDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public let file: String
    /// Where the problem is; nil when the file could not be read at all.
    public let position: SourcePosition?
    /// What is wrong, in one line.
    public let message: String

    /// Creates a diagnostic.
    public init(file: String, position: SourcePosition?, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` without a position.
    public var description: String {
        guard let position else { return "\(file): \(message)" }
        return "\(file):\(position.line):\(position.column): \(message)"
    }
}
