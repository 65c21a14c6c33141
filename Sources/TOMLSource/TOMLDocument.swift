import TOMLKit

/// A TOML text parsed into plain values, which places problems found in them at their line
/// and column: the one way scenario and theme files are read, so both report problems the same
/// way.
package struct TOMLDocument: Sendable {
    /// The root table.
    package let root: [String: TOMLNode]
    /// The text, scanned again for positions only when there is a problem to place.
    private let text: String

    /// Parses `text`, named `file` in diagnostics. The text is scanned first, so what TOMLKit
    /// cannot take (too deep, NUL escapes) is reported at its place and never reaches it; then
    /// TOMLKit's syntax errors come with its position.
    package init(parsing text: String, file: String) throws(SourceProblems) {
        let problems = SourceMap.problems(in: text)
        guard problems.isEmpty else {
            throw SourceProblems(problems.map { SourceDiagnostic(file: file, position: $0.position, message: $0.message) })
        }
        do {
            guard case .table(let root) = TOMLNode(try TOMLTable(string: text)) else {
                throw SourceProblems(file: file, at: .start, "is not a TOML table")
            }
            self.root = root
            self.text = text
        } catch let error as TOMLParseError {
            // toml++ positions are 1-based; the guard keeps an end-of-file report inside the file.
            let position = SourcePosition(line: max(error.source.begin.line, 1), column: max(error.source.begin.column, 1))
            throw SourceProblems(file: file, at: position, "invalid TOML: \(error.description.echoed(limit: 200))")
        } catch let error as SourceProblems {
            throw error
        } catch {
            throw SourceProblems(file: file, "invalid TOML: \(String(describing: error).echoed(limit: 200))")
        }
    }

    /// The diagnostics for what `log` collected, each at the key or value it is about.
    package func diagnostics(_ log: IssueLog, file: String) -> [SourceDiagnostic] {
        log.diagnostics(file: file, map: SourceMap(text: text))
    }
}
