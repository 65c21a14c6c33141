import TOMLSource

/// Decodes an update step's `set` and `append` tables into a ``StateChange``.
struct StateChangeDecoder {
    let log: IssueLog

    func change(_ reader: TableReader) -> StateChange {
        if !reader.contains("set"), !reader.contains("append") {
            reader.reportMissing("set", "or 'append': what the update changes")
        }
        return StateChange(set: entries(reader, "set"), append: entries(reader, "append"))
    }

    /// The table's entries in key order (TOML tables have no order; sorting keeps runs alike).
    private func entries(_ reader: TableReader, _ key: String) -> [StateChange.Entry] {
        guard let table = reader.table(key) else { return [] }
        return table.entries.sorted { $0.key < $1.key }.compactMap { key, node in
            value(node, at: table.path.appending(key)).map { StateChange.Entry(key: key, value: $0) }
        }
    }

    private func value(_ node: TOMLNode, at path: TOMLPath) -> StateValue? {
        switch node {
        case .string(let text): return .string(text)
        case .integer(let value): return .integer(value)
        case .float(let value): return .number(value)
        case .bool(let value): return .bool(value)
        case .array(let elements):
            let values = elements.enumerated().map { value($1, at: path.appending(index: $0)) }
            return values.contains(nil) ? nil : .list(values.compactMap { $0 })
        case .table, .other:
            log.value(path, "state values must be strings, numbers, booleans or arrays of them, not \(node.typeDescription)")
            return nil
        }
    }
}
