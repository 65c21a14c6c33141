/// A value in the scenario's state: what `set` and `append` write.
package indirect enum StateValue: Sendable, Hashable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// A list, which `append` grows.
    case list([StateValue])

    /// The value followed by `element`: a list grows; a single value becomes a two-element list,
    /// so `append` never throws work away.
    func appending(_ element: StateValue) -> StateValue {
        if case .list(let elements) = self { return .list(elements + [element]) }
        return .list([self, element])
    }

    /// The value as TOML would write it: strings quoted, lists in brackets.
    package var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        case .list(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        }
    }
}
