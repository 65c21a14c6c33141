import TOMLKit

/// A parsed TOML value as plain Swift data: what validation reads, so TOMLKit's reference types
/// (not `Sendable`, backed by C++ nodes) never leave parsing.
indirect enum TOMLNode {
    case table([String: TOMLNode])
    case array([TOMLNode])
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time: never valid in a scenario, kept only to name it in messages.
    case other(TOMLType)

    init(_ value: any TOMLValueConvertible) {
        if let table = value.table {
            self = .table(Dictionary(uniqueKeysWithValues: table.map { key, value in (key, TOMLNode(value)) }))
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
            self = .other(value.type)
        }
    }

    /// The value's type with an article, for messages: "a string", "an integer".
    var typeDescription: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .bool: "a boolean"
        case .other(let type): "a \(type)"
        }
    }
}
