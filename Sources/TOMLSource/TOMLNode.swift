import TOMLKit

/// A parsed TOML value as plain Swift data: what validation reads, so TOMLKit's reference types
/// (not `Sendable`, backed by C++ nodes) never leave parsing.
package indirect enum TOMLNode: Sendable {
    case table([String: TOMLNode])
    case array([TOMLNode])
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time: kept only to name it in messages ("a date").
    case other(typeName: String)

    /// Converts a TOMLKit value. Tables are walked through their `keys` and `values` arrays,
    /// not TOMLKit's iterator, which force-unwraps a lookup by key and so crashes on a key
    /// holding NUL (the scanner already refuses those; this keeps a slip from crashing), and
    /// keys that come out equal keep their first value instead of trapping.
    init(_ value: any TOMLValueConvertible) {
        if let table = value.table {
            let pairs = zip(table.keys, table.values.map(TOMLNode.init))
            self = .table(Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
        } else if let array = value.array {
            self = .array(array.map(TOMLNode.init))
        } else if let string = value.string {
            self = .string(string)
        } else if let integer = value.int {
            self = .integer(integer)
        } else if let float = value.double {
            self = .float(float)
        } else if let bool = value.bool {
            self = .bool(bool)
        } else {
            self = .other(typeName: value.type == .dateTime ? "date-time" : "\(value.type)")
        }
    }

    /// The value's type with an article, for messages: "a string", "an integer".
    package var typeDescription: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .bool: "a boolean"
        case .other(let typeName): "a \(typeName)"
        }
    }
}
