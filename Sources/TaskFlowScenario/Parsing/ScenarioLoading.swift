import Foundation
import TOMLSource

extension Scenario {
    /// Reads, parses and validates the scenario file at `url`. Throws a ``ScenarioError`` naming
    /// the file as written in `url` (relative paths stay relative) when the file is missing,
    /// unreadable, not a regular file, empty, larger than 16 MiB or not UTF-8 text without NUL
    /// characters, when it is not valid TOML, or when it breaks a rule of the format.
    package static func load(contentsOf url: URL) throws(ScenarioError) -> Scenario {
        let file = ScenarioFile.displayName(of: url)
        let text: String
        do {
            text = try SourceFile.read(path: url.path(percentEncoded: false), file: file, kind: "scenario file")
        } catch {
            throw ScenarioError(error)
        }
        return try parse(text, file: file)
    }

    /// Parses and validates scenario `text`; `file` names it in diagnostics.
    package static func parse(_ text: String, file: String = "scenario.toml") throws(ScenarioError) -> Scenario {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text, file: file)
        } catch {
            throw ScenarioError(error)
        }
        let log = IssueLog()
        let scenario = ScenarioDecoder(log: log).scenario(document.root)
        guard log.issues.isEmpty else { throw ScenarioError(document.diagnostics(log, file: file)) }
        return scenario
    }
}
