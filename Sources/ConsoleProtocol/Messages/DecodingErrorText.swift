extension DecodingError {
    /// The error in one line, naming the field: "missing field 'flow'", "unknown command 'reboot'".
    package var oneLine: String {
        switch self {
        case .keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        case .typeMismatch(let type, let context): return "field '\(Self.path(context))' is not \(Self.kind(type))"
        case .valueNotFound(let type, let context): return "field '\(Self.path(context))' is null, not \(Self.kind(type))"
        case .dataCorrupted(let context):
            // Only the parser reports at the top: the messages' own checks name a field.
            return context.codingPath.isEmpty ? "not JSON" : context.debugDescription
        @unknown default: return "unreadable message"
        }
    }

    private static func path(_ context: Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        case is any BinaryInteger.Type: "a whole number"
        default: "what it should be"
        }
    }
}
