import Foundation
import TOMLKit

extension Scenario {
    /// Reads, parses and validates the scenario file at `url`. Throws a ``ScenarioError`` naming
    /// the file as written in `url` (relative paths stay relative) when the file is missing, a
    /// directory or unreadable, when it is not valid TOML, or when it breaks a rule of the format.
    public static func load(contentsOf url: URL) throws(ScenarioError) -> Scenario {
        try parse(ScenarioFile.read(url), file: ScenarioFile.displayName(of: url))
    }

    /// Parses and validates scenario `text`; `file` names it in diagnostics.
    public static func parse(_ text: String, file: String = "scenario.toml") throws(ScenarioError) -> Scenario {
        let root = try document(text, file: file)
        let log = IssueLog()
        let scenario = ScenarioDecoder(log: log).scenario(root)
        guard log.issues.isEmpty else {
            throw ScenarioError(log.diagnostics(file: file, map: SourceMap(text: text)))
        }
        return scenario
    }

    /// The TOML document as plain values; TOML syntax errors come with TOMLKit's position.
    private static func document(_ text: String, file: String) throws(ScenarioError) -> [String: TOMLNode] {
        do {
            guard case .table(let root) = TOMLNode(try TOMLTable(string: text)) else { return [:] }
            return root
        } catch let error as TOMLParseError {
            // toml++ positions are 1-based; the guard keeps an end-of-file report inside the file.
            let position = SourcePosition(line: max(error.source.begin.line, 1), column: max(error.source.begin.column, 1))
            throw ScenarioError([ScenarioDiagnostic(file: file, position: position, message: error.description)])
        } catch {
            throw ScenarioError(file: file, message: String(describing: error))
        }
    }
}
