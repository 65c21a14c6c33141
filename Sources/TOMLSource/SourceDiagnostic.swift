/// One problem in a source file (a scenario or a theme), printed as one line:
/// `file:line:column: message`, the form compilers use, so editors and terminals can jump to it.
public struct SourceDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public let file: String
    /// Where the problem is; nil when it is about the file as a whole (missing, unreadable).
    public let position: SourcePosition?
    /// What is wrong, in one line.
    public let message: String

    /// Creates a diagnostic.
    public init(file: String, position: SourcePosition?, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` without a position. Control characters
    /// in the file name or the message are escaped, so one diagnostic is always one printable
    /// line whatever the file contained.
    public var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): \(message)".escapingControlCharacters
    }
}
