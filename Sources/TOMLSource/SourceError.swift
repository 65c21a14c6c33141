/// An error made of diagnostics about one input file: what ``ScenarioError``-like types share,
/// so every file the user gives is reported the same way, one line per problem, exit status 2.
package protocol SourceError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in file order; never empty.
    var diagnostics: [SourceDiagnostic] { get }
}

extension SourceError {
    /// The exit status for a command that could not use the file: 2, the usage-error status.
    package var exitCode: Int32 { 2 }

    /// One line per problem, at most ``SourceLimits/reportedDiagnostics`` of them and then a
    /// line saying how many more there are: a file of garbage is not a screenful of errors.
    package var description: String {
        let shown = diagnostics.prefix(SourceLimits.reportedDiagnostics).map(\.description)
        let hidden = diagnostics.count - shown.count
        guard hidden > 0, let file = diagnostics.first?.file else { return shown.joined(separator: "\n") }
        let more = "\(file): \(hidden) more problem\(hidden == 1 ? "" : "s") not shown".escapingControlCharacters
        return (shown + [more]).joined(separator: "\n")
    }

    /// Diagnostics in file order; those without a position (about the whole file) first.
    package static func sorted(_ diagnostics: [SourceDiagnostic]) -> [SourceDiagnostic] {
        diagnostics.sorted { ($0.position ?? .start) < ($1.position ?? .start) }
    }
}
