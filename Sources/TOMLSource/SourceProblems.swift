/// Diagnostics found while reading or parsing a file, before a format (scenario, theme) wraps
/// them in its own public error type.
package struct SourceProblems: Error, Sendable {
    /// What was found; never empty.
    package let diagnostics: [SourceDiagnostic]

    package init(_ diagnostics: [SourceDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a problem report holds at least one problem")
        self.diagnostics = diagnostics
    }

    /// One problem of the file as a whole (missing, unreadable), or at `position`.
    package init(file: String, at position: SourcePosition? = nil, _ message: String) {
        self.init([SourceDiagnostic(file: file, position: position, message: message)])
    }
}
