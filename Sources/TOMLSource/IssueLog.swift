/// Collects what validation finds wrong, by document path, so every problem of a file is
/// reported at once; the loader then turns paths into lines and columns. Scenario and theme
/// validation both report through it. Used by one validation pass on one thread, so a plain
/// class is enough.
package final class IssueLog {
    /// Whether the problem is about the key itself or about its value.
    package enum Anchor {
        /// Points at the key (unknown key, a key that is not allowed here, a missing key's table).
        case key
        /// Points at the value (wrong type, bad duration, out of range).
        case value
    }

    package struct Issue {
        package let path: TOMLPath
        package let anchor: Anchor
        package let message: String
    }

    package private(set) var issues: [Issue] = []

    package init() {}

    /// Reports a problem with the key at `path`.
    package func key(_ path: TOMLPath, _ message: String) {
        issues.append(Issue(path: path, anchor: .key, message: message))
    }

    /// Reports a problem with the value at `path`.
    package func value(_ path: TOMLPath, _ message: String) {
        issues.append(Issue(path: path, anchor: .value, message: message))
    }

    /// The issues as diagnostics of `file`, placed with `map`.
    package func diagnostics(file: String, map: SourceMap) -> [SourceDiagnostic] {
        issues.map { issue in
            let position = switch issue.anchor {
            case .key: map.keyPosition(of: issue.path)
            case .value: map.valuePosition(of: issue.path)
            }
            return SourceDiagnostic(file: file, position: position, message: issue.message)
        }
    }
}
