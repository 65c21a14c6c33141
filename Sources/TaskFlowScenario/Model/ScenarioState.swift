/// The state a scenario's manager owns: named values that write flows change through `update`
/// steps and read flows see in their snapshot.
package struct ScenarioState: Sendable, Equatable, CustomStringConvertible {
    /// Every key written so far.
    package private(set) var values: [String: StateValue]

    /// A state holding `values` (empty by default).
    package init(_ values: [String: StateValue] = [:]) {
        self.values = values
    }

    /// The value at `key`, if any.
    package subscript(key: String) -> StateValue? { values[key] }

    /// Applies `change`: its `set` entries first, then its `append` entries.
    package mutating func apply(_ change: StateChange) {
        for entry in change.set {
            values[entry.key] = entry.value
        }
        for entry in change.append {
            values[entry.key] = values[entry.key]?.appending(entry.value) ?? .list([entry.value])
        }
    }

    /// `key = value` pairs sorted by key, so it prints the same way every time.
    package var description: String {
        values.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
    }
}
