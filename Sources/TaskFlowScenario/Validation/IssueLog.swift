/// Collects what validation finds wrong, by document path, so every problem of a file is
/// reported at once; the loader then turns paths into lines and columns. Used by one
/// validation pass on one thread, so a plain class is enough.
final class IssueLog {
    /// Whether the problem is about the key itself or about its value.
    enum Anchor {
        /// Points at the key (unknown key, a key that is not allowed here, a missing key's table).
        case key
        /// Points at the value (wrong type, bad duration, out of range).
        case value
    }

    struct Issue {
        let path: TOMLPath
        let anchor: Anchor
        let message: String
    }

    private(set) var issues: [Issue] = []

    /// Reports a problem with the key at `path`.
    func key(_ path: TOMLPath, _ message: String) {
        issues.append(Issue(path: path, anchor: .key, message: message))
    }

    /// Reports a problem with the value at `path`.
    func value(_ path: TOMLPath, _ message: String) {
        issues.append(Issue(path: path, anchor: .value, message: message))
    }

    /// The issues as diagnostics of `file`, placed with `map`.
    func diagnostics(file: String, map: SourceMap) -> [ScenarioDiagnostic] {
        issues.map { issue in
            let position = switch issue.anchor {
            case .key: map.keyPosition(of: issue.path)
            case .value: map.valuePosition(of: issue.path)
            }
            return ScenarioDiagnostic(file: file, position: position, message: issue.message)
        }
    }
}
