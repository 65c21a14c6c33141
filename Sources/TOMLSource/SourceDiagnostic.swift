/// One problem in a source file (a scenario or a theme), printed as one line:
/// `file:line:column: message`, the form compilers use, so editors and terminals can jump to it.
package struct SourceDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    package let file: String
    /// Where the problem is; nil when it is about the file as a whole (missing, unreadable).
    package let position: SourcePosition?
    /// What is wrong, in one line.
    package let message: String

    /// Creates a diagnostic.
    package init(file: String, position: SourcePosition?, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` without a position. Control characters
    /// in the file name or the message are escaped, so one diagnostic is always one printable
    /// line whatever the file contained.
    package var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): \(message)".escapingControlCharacters
    }
}
