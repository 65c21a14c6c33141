/// Where a value sits in a TOML document: the keys and array indices leading to it from the
/// root, like `flow[1].step[0].duration`. Validation reports problems by path; the
/// ``SourceMap`` turns a path into a line and column.
package struct TOMLPath: Hashable, Sendable, CustomStringConvertible {
    package enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    package private(set) var components: [Component]

    package init(components: [Component]) {
        self.components = components
    }

    package static let root = TOMLPath(components: [])

    package func appending(_ key: String) -> TOMLPath { TOMLPath(components: components + [.key(key)]) }

    package func appending(index: Int) -> TOMLPath { TOMLPath(components: components + [.index(index)]) }

    /// How many keys and indices lead here: what ``SourceLimits/nesting`` bounds.
    package var depth: Int { components.count }

    /// The keys on the path joined with dots, indices left out: `status.running.fg`, how a
    /// message names a setting.
    package var dottedKeys: String {
        components.compactMap { if case .key(let key) = $0 { key } else { nil } }.joined(separator: ".")
    }

    /// The path without its last component; nil for the root.
    package var parent: TOMLPath? {
        components.isEmpty ? nil : TOMLPath(components: components.dropLast())
    }

    /// The last key on the path, if any: what a message names.
    package var lastKey: String? {
        for component in components.reversed() {
            if case .key(let key) = component { return key }
        }
        return nil
    }

    package var description: String {
        components.reduce(into: "") { text, component in
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
    }
}
