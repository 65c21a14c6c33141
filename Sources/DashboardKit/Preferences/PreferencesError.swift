import TOMLSource

/// A preferences file that cannot be used, with every problem found in it, one line each in the
/// form every input file uses: `~/.config/taskflow/config.toml:3:9: 'mouse' must be true or false`.
/// Reported before the screen starts; the command line exits with ``exitCode`` (2).
package struct PreferencesError: SourceError, Hashable {
    /// Every problem, in file order; never empty.
    package let diagnostics: [SourceDiagnostic]

    /// Wraps problems, sorting them by position.
    package init(_ diagnostics: [SourceDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a PreferencesError reports at least one problem")
        self.diagnostics = Self.sorted(diagnostics)
    }
}
