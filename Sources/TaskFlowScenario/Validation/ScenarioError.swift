/// Why a scenario could not be loaded: the file is missing or unreadable, is not valid TOML, or
/// breaks a rule of the scenario format. Nothing has run when this is thrown. A command line
/// prints ``description`` to standard error and exits with ``exitCode``.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem found, in file order; never empty.
    public let diagnostics: [ScenarioDiagnostic]

    /// Wraps problems, sorting them by position.
    public init(_ diagnostics: [ScenarioDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a ScenarioError reports at least one problem")
        self.diagnostics = diagnostics.sorted { ($0.position ?? .start) < ($1.position ?? .start) }
    }

    /// A single problem of the file as a whole (missing, a directory, unreadable).
    init(file: String, message: String) {
        self.init([ScenarioDiagnostic(file: file, position: nil, message: message)])
    }

    /// The exit status for a command that could not use the file: 2, the usage-error status.
    public var exitCode: Int32 { 2 }

    /// One line per problem.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
