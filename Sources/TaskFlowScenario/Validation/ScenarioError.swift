import TOMLSource

/// One problem in a scenario file, printed as one line: `file:line:column: message`. The same
/// type theme files report with, so both read alike.
package typealias ScenarioDiagnostic = SourceDiagnostic

/// A place in a scenario file: 1-based line and column.
package typealias SourcePosition = TOMLSource.SourcePosition

/// Why a scenario could not be loaded: the file is missing, unreadable, not a regular file,
/// empty, too large, not UTF-8 text, not valid TOML, or breaks a rule of the format. Nothing
/// has run when this is thrown. A command line prints ``description`` (one line per problem,
/// control characters escaped) to standard error and exits with ``exitCode`` (2).
package struct ScenarioError: SourceError, Equatable {
    /// Every problem found, in file order; never empty.
    package let diagnostics: [ScenarioDiagnostic]

    /// Wraps problems, sorting them by position.
    package init(_ diagnostics: [ScenarioDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a ScenarioError reports at least one problem")
        self.diagnostics = Self.sorted(diagnostics)
    }

    /// A single problem of the file as a whole (missing, a directory, unreadable).
    init(file: String, message: String) {
        self.init([ScenarioDiagnostic(file: file, position: nil, message: message)])
    }

    /// What reading or parsing the file found.
    init(_ problems: SourceProblems) {
        self.init(problems.diagnostics)
    }
}
