import TOMLKit

/// A TOML text parsed into plain values, with the map from paths to where they are written:
/// the one way scenario and theme files are read, so both report problems the same way.
package struct TOMLDocument: Sendable {
    /// The root table.
    package let root: [String: TOMLNode]
    /// Where each key and value is written.
    package let map: SourceMap

    /// Parses `text`, named `file` in diagnostics. The text is scanned first, so what TOMLKit
    /// cannot take (too deep, NUL escapes) is reported at its place and never reaches it; then
    /// TOMLKit's syntax errors come with its position.
    package init(parsing text: String, file: String) throws(SourceProblems) {
        let map = SourceMap(text: text)
        guard map.problems.isEmpty else {
            throw SourceProblems(map.problems.map { SourceDiagnostic(file: file, position: $0.position, message: $0.message) })
        }
        do {
            guard case .table(let root) = TOMLNode(try TOMLTable(string: text)) else {
                throw SourceProblems(file: file, at: .start, "is not a TOML table")
            }
            self.root = root
            self.map = map
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

    /// The diagnostics for what `log` collected, placed with this document's map.
    package func diagnostics(_ log: IssueLog, file: String) -> [SourceDiagnostic] {
        log.diagnostics(file: file, map: map)
    }
}
