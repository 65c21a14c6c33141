extension KeyedDecodingContainer {
    /// The case of `T` whose name (`name`) the field holds; a clear error naming the field and
    /// the text otherwise ("unknown access 'exclusive'").
    func decodeNamed<T: CaseIterable>(_ type: T.Type, forKey key: Key, name: (T) -> String) throws -> T {
        let text = try decode(String.self, forKey: key)
        guard let value = T.allCases.first(where: { name($0) == text }) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "unknown \(key.stringValue) '\(text)'")
        }
        return value
    }

    /// A string-backed enum's case from its raw value.
    func decodeNamed<T: RawRepresentable>(_ type: T.Type, forKey key: Key) throws -> T where T.RawValue == String {
        let text = try decode(String.self, forKey: key)
        guard let value = T(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "unknown \(key.stringValue) '\(text)'")
        }
        return value
    }
}

/// Wire enums whose cases are written by name.
protocol WireCases: RawRepresentable, Codable where RawValue == String {}
