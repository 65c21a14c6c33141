import TOMLSource

/// Reads one TOML table strictly: reports keys it does not know, values of the wrong type and
/// required keys that are missing, each at its path, and returns nil for anything unusable so
/// validation can go on and report every problem of the file at once.
struct TableReader {
    /// Where the table is.
    let path: TOMLPath
    /// How messages name the table: "the scenario", "flow 'Publish'", "task step 'Upload'".
    let name: String
    /// How many characters of a title such a name shows: few, since the message goes on.
    static let titleEcho = 30
    let log: IssueLog
    private let entries: [String: TOMLNode]

    /// Reads `entries`, reporting every key not in `allowed`; `reasons` explains, for keys that
    /// are valid elsewhere, why they are not valid here.
    init(
        _ entries: [String: TOMLNode], at path: TOMLPath, name: String, log: IssueLog,
        allowed: [String], reasons: [String: String] = [:]
    ) {
        // A rejected key is reported here, once; its value is never read, so a mistake does not
        // also get a second error about a value that should not be there at all.
        self.entries = entries.filter { allowed.contains($0.key) }
        self.path = path
        self.name = name
        self.log = log
        for key in entries.keys.sorted() where !allowed.contains(key) {
            let reason = reasons[key] ?? "expected one of: " + allowed.joined(separator: ", ")
            log.key(path.appending(key), "unknown key '\(key.echoed())' in \(name); \(reason)")
        }
    }

    /// How messages name a table of `kind` whose title is `title`: "job 'Upload'", or "a job"
    /// when the title is missing or not a string.
    static func name(_ kind: String, titledBy title: TOMLNode?) -> String {
        guard case .string(let text) = title else { return "a \(kind)" }
        return "\(kind) '\(text.echoed(limit: titleEcho))'"
    }

    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Reports `key` as missing, at the table.
    func reportMissing(_ key: String, _ hint: String = "") {
        log.key(path, "\(name) needs '\(key)'\(hint.isEmpty ? "" : " (\(hint))")")
    }

    // MARK: - Typed values

    func string(_ key: String) -> String? {
        typed(key, "a string") { if case .string(let text) = $0 { text } else { nil } }
    }

    /// A string that must be present and not empty.
    func title(_ key: String) -> String? {
        guard contains(key) else {
            reportMissing(key)
            return nil
        }
        guard let text = string(key) else { return nil }
        if text.isEmpty { log.value(path.appending(key), "'\(key)' must not be empty") }
        return text
    }

    func integer(_ key: String, atLeast minimum: Int, atMost maximum: Int = .max) -> Int? {
        guard let value = typed(key, "an integer", { if case .integer(let value) = $0 { value } else { nil } }) else {
            return nil
        }
        guard value >= minimum else {
            log.value(path.appending(key), "'\(key)' must be at least \(minimum), not \(value)")
            return nil
        }
        guard value <= maximum else {
            log.value(path.appending(key), "'\(key)' must be at most \(maximum), not \(value)")
            return nil
        }
        return value
    }

    func bool(_ key: String) -> Bool? {
        typed(key, "a boolean") { if case .bool(let value) = $0 { value } else { nil } }
    }

    /// A number (integer or not) within 0...1.
    func fraction(_ key: String) -> Double? {
        let value = typed(key, "a number between 0 and 1") { node -> Double? in
            switch node {
            case .integer(let value): Double(value)
            case .float(let value): value
            default: nil
            }
        }
        guard let value else { return nil }
        guard (0...1).contains(value) else {
            log.value(path.appending(key), "'\(key)' must be between 0 and 1, not \(value)")
            return nil
        }
        return value
    }

    func duration(_ key: String) -> Duration? {
        guard let node = entries[key] else { return nil }
        return Self.duration(node, at: path.appending(key), key: key, log: log)
    }

    /// ``DurationText/longest`` for messages: "1440m (24 hours)".
    static let longestText =
        "\(DurationText.format(DurationText.longest)) (\(DurationText.longest.components.seconds / 3600) hours)"

    static let durationExpectation = "a duration like \"300ms\", \"1.5s\" or \"2m\""

    /// A duration string; shared with `revert`, which may also be a boolean.
    static func duration(
        _ node: TOMLNode, at path: TOMLPath, key: String, log: IssueLog, expected: String = durationExpectation
    ) -> Duration? {
        guard case .string(let text) = node else {
            log.value(path, "'\(key)' must be \(expected), not \(node.typeDescription)")
            return nil
        }
        switch DurationText.read(text) {
        case .valid(let duration):
            return duration
        case .tooLong:
            log.value(path, "'\(key)' must be at most \(longestText), not \"\(text.echoed())\"")
        case .malformed:
            log.value(path, "'\(key)' must be \(expected), not \"\(text.echoed())\"")
        }
        return nil
    }

    /// The raw value of `key`, for values with more than one valid type.
    func node(_ key: String) -> TOMLNode? { entries[key] }

    // MARK: - Tables

    /// A sub-table: `key = { ... }` or `[key]`.
    func table(_ key: String) -> (path: TOMLPath, entries: [String: TOMLNode])? {
        typed(key, "a table") { if case .table(let entries) = $0 { (path.appending(key), entries) } else { nil } }
    }

    /// An array of tables: `[[key]]` sections or `key = [{ ... }, { ... }]`. Elements that are
    /// not tables are reported and left out.
    func tables(_ key: String) -> [(path: TOMLPath, entries: [String: TOMLNode])]? {
        guard let elements = typed(key, "an array of tables", { if case .array(let elements) = $0 { elements } else { nil } }) else {
            return nil
        }
        return elements.enumerated().compactMap { index, element in
            let elementPath = path.appending(key).appending(index: index)
            guard case .table(let entries) = element else {
                log.value(elementPath, "each element of '\(key)' must be a table, not \(element.typeDescription)")
                return nil
            }
            return (elementPath, entries)
        }
    }

    private func typed<T>(_ key: String, _ expected: String, _ extract: (TOMLNode) -> T?) -> T? {
        guard let node = entries[key] else { return nil }
        guard let value = extract(node) else {
            log.value(path.appending(key), "'\(key)' must be \(expected), not \(node.typeDescription)")
            return nil
        }
        return value
    }
}
