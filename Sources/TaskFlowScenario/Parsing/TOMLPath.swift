/// Where a value sits in a TOML document: the keys and array indices leading to it from the
/// root, like `flow[1].step[0].duration`. Validation reports problems by path; the
/// ``SourceMap`` turns a path into a line and column.
struct TOMLPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component]

    static let root = TOMLPath(components: [])

    func appending(_ key: String) -> TOMLPath { TOMLPath(components: components + [.key(key)]) }

    func appending(index: Int) -> TOMLPath { TOMLPath(components: components + [.index(index)]) }

    /// The path without its last component; nil for the root.
    var parent: TOMLPath? {
        components.isEmpty ? nil : TOMLPath(components: components.dropLast())
    }

    /// The last key on the path, if any: what a message names.
    var lastKey: String? {
        for component in components.reversed() {
            if case .key(let key) = component { return key }
        }
        return nil
    }

    var description: String {
        components.reduce(into: "") { text, component in
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
    }
}
