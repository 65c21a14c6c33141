/// Finds the line of a key in TOML source text, because TOMLKit reports lines only for syntax
/// errors and a theme error must name the line of a bad value too.
///
/// It understands what theme files use: `[table]` headers, `key = value` lines with bare or
/// quoted keys, and dotted keys. Inline tables are on their key's line, so a path into one
/// (`status.running.fg`) is found at the line of `running`.
struct KeyLocator {
    private struct Entry {
        let path: [String]
        let line: Int
    }

    private let entries: [Entry]

    init(source: String) {
        var table: [String] = []
        var entries: [Entry] = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingPrefix(while: \.isWhitespace)
            if line.hasPrefix("[") {
                // `[table]` or `[[array]]`: recorded too, so that a table's own error (an
                // unknown name) has a line, and keys below it are found inside it.
                table = Self.keyPath(line.drop { $0 == "[" }.prefix { $0 != "]" })
                entries.append(Entry(path: table, line: index + 1))
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                entries.append(Entry(path: table + Self.keyPath(line[..<equals]), line: index + 1))
            }
        }
        self.entries = entries
    }

    /// The line where `path` (or the closest enclosing key written in the file) is defined.
    func line(of path: [String]) -> Int? {
        var prefix = path
        while !prefix.isEmpty {
            if let entry = entries.first(where: { $0.path == prefix }) { return entry.line }
            prefix.removeLast()
        }
        return nil
    }

    /// `a.b`, `"a.b"`, `a . "b"` → components without quotes.
    private static func keyPath(_ text: Substring) -> [String] {
        var components: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                components.append(current)
                current = ""
            } else if !character.isWhitespace {
                current.append(character)
            }
        }
        components.append(current)
        return components
    }
}
