import TOMLSource

/// A theme that cannot be used, with every problem found in it, one line each in the form
/// scenario files use too: `Themes/x.toml:12:9: unknown colour "gren" for 'status.running.fg' …`.
/// Reported before the screen starts; the command line exits with ``exitCode`` (2).
package struct ThemeError: SourceError, Hashable {
    /// Every problem, in file order; never empty.
    package let diagnostics: [SourceDiagnostic]

    /// Wraps problems, sorting them by position.
    package init(_ diagnostics: [SourceDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a ThemeError reports at least one problem")
        self.diagnostics = Self.sorted(diagnostics)
    }

    /// A problem of the theme file as a whole (missing, unreadable), or of the theme asked for
    /// when no file was found.
    package init(file: String, message: String) {
        self.init([SourceDiagnostic(file: file, position: nil, message: message)])
    }

    /// The theme file (or the name asked for, when no file was found).
    package var file: String { diagnostics[0].file }
    /// The line of the first problem, when it has one.
    package var line: Int? { diagnostics[0].position?.line }
    /// The column of the first problem, when it has one.
    package var column: Int? { diagnostics[0].position?.column }
    /// What the first problem is.
    package var message: String { diagnostics[0].message }
}
