/// Walks a TOML text once and records, by ``TOMLPath``, where every key and every value
/// begins. It follows just enough of TOML to keep paths right: `[table]` and `[[array]]` headers
/// (counting array-of-table elements the way TOML resolves them), dotted and quoted keys, inline
/// tables, arrays and every string form (so `#`, `=` or brackets inside strings are not
/// mistaken for structure). It does not check the syntax (TOMLKit does), but it runs before
/// TOMLKit and finds what TOMLKit cannot take: nesting deeper than ``SourceLimits/nesting``
/// (which would cost TOMLKit and validation time far beyond linear) and the escape `\u0000`
/// (TOMLKit cuts strings at a NUL and crashes on a key holding one), and raw control
/// characters, which TOML forbids and on which toml++ asserts in some places. On broken text it still
/// ends, every step consuming at least one character, its positions only as good as its guesses.
struct SourceScanner {
    private(set) var keys: [TOMLPath: SourcePosition] = [:]
    private(set) var values: [TOMLPath: SourcePosition] = [:]
    /// What the scan found TOMLKit must not see, in file order.
    private(set) var problems: [(position: SourcePosition, message: String)] = []
    /// Set at the first raw control character: one report says what is wrong with the file.
    private var foundRawControl = false

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    /// The table that plain `key = value` lines belong to: set by the last header.
    private var table = TOMLPath.root
    /// How many elements each array of tables has so far, so `[[flow.step]]` lands in the last
    /// `[[flow]]`.
    private var arrayTableCounts: [TOMLPath: Int] = [:]

    /// Whether ``keys`` and ``values`` are filled: without, a scan only looks for ``problems``,
    /// which spares a valid file the cost of a position for every key.
    private let recordsPositions: Bool

    init(_ text: String, recordingPositions: Bool = true) {
        scalars = Array(text.unicodeScalars)
        recordsPositions = recordingPositions
        // A byte order mark is no text: TOMLKit skips it, and editors count columns after it.
        if scalars.first == "\u{FEFF}" { index = 1 }
    }

    mutating func scan() {
        while current != nil {
            skipTrivia(acrossLines: true)
            guard let scalar = current else { return }
            if scalar == "[" {
                header()
            } else {
                keyValue(in: table)
            }
        }
    }

    // MARK: - Structure

    private mutating func header() {
        let start = position
        advance()
        let isArray = current == "["
        if isArray { advance() }
        let parts = dottedKey()
        while let scalar = current, scalar == "]" || scalar == " " || scalar == "\t" { advance() }
        // Checked before the path is built, which costs the square of its length.
        guard isWithinNesting(parts.count, at: start) else { return }

        var path = TOMLPath.root
        for (offset, part) in parts.enumerated() {
            path = path.appending(part.name)
            // An array of tables named on the way means its latest element.
            if offset < parts.count - 1, let count = arrayTableCounts[path] {
                path = path.appending(index: count - 1)
            }
        }
        if isArray {
            let count = arrayTableCounts[path, default: 0]
            guard isWithinArrayLimit(count, of: path, at: start) else { return }
            arrayTableCounts[path] = count + 1
            record(key: path, at: start)
            path = path.appending(index: count)
        }
        guard isWithinNesting(path.depth, at: start) else { return }
        record(key: path, at: start)
        table = path
    }

    private mutating func keyValue(in base: TOMLPath) {
        var path = base
        let parts = dottedKey()
        guard isWithinNesting(base.depth + parts.count, at: parts[0].position) else { return }
        for part in parts {
            path = path.appending(part.name)
            record(key: path, at: part.position)
        }
        skipTrivia(acrossLines: false)
        if current == "=" { advance() }
        skipTrivia(acrossLines: false)
        value(at: path)
    }

    private mutating func value(at path: TOMLPath) {
        guard let scalar = current else { return }
        if recordsPositions, values[path] == nil { values[path] = position }
        switch scalar {
        case "\"", "'": _ = string()
        case "{": inlineTable(at: path)
        case "[": array(at: path)
        default:
            // Numbers, booleans, dates: everything up to what ends a value. In broken text
            // nothing may come before such an end: step over it, so the scan moves on.
            let start = index
            while let scalar = current, !",]}#\r\n".unicodeScalars.contains(scalar) { advance() }
            if index == start { advance() }
        }
    }

    private mutating func inlineTable(at path: TOMLPath) {
        advance()
        while current != nil {
            // Newlines are skipped too: TOML 1.1 allows them, and they cost nothing here.
            skipTrivia(acrossLines: true)
            guard let scalar = current else { return }
            if scalar == "}" {
                advance()
                return
            }
            if scalar == "," {
                advance()
                continue
            }
            keyValue(in: path)
        }
    }

    private mutating func array(at path: TOMLPath) {
        advance()
        var count = 0
        while current != nil {
            skipTrivia(acrossLines: true)
            guard let scalar = current else { return }
            if scalar == "]" {
                advance()
                return
            }
            if scalar == "," {
                advance()
                continue
            }
            let element = path.appending(index: count)
            guard isWithinNesting(element.depth, at: position), isWithinArrayLimit(count, of: path, at: position) else { return }
            record(key: element, at: position)
            value(at: element)
            count += 1
        }
    }

    // MARK: - Keys and strings

    private mutating func dottedKey() -> [(name: String, position: SourcePosition)] {
        var parts: [(name: String, position: SourcePosition)] = []
        repeat {
            if !parts.isEmpty { advance() }  // the dot
            skipTrivia(acrossLines: false)
            let start = position
            parts.append((name: simpleKey(), position: start))
            skipTrivia(acrossLines: false)
        } while current == "."
        return parts
    }

    private mutating func simpleKey() -> String {
        if current == "\"" || current == "'" { return string() }
        var name = ""
        while let scalar = current, Self.isBareKeyCharacter(scalar) {
            name.unicodeScalars.append(scalar)
            advance()
        }
        // Not a key at all (only in broken text): step over it so the scan always moves on.
        if name.isEmpty { advance() }
        return name
    }

    /// A letter, digit, `_` or `-`. TOML's bare keys are ASCII; letters beyond ASCII are taken
    /// too (as TOML 1.1 will), looked up only for them, since Unicode property lookups are what
    /// a scan of a large file would otherwise spend most of its time on.
    private static func isBareKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: !scalar.isASCII && scalar.properties.isAlphabetic
        }
    }

    /// Consumes a string in any of TOML's four forms and returns its raw content (escapes are
    /// kept as written: only key names use the content, and they rarely hold escapes).
    private mutating func string() -> String {
        guard let quote = current else { return "" }
        let isBasic = quote == "\""
        let isMultiline = peek(1) == quote && peek(2) == quote
        advance(by: isMultiline ? 3 : 1)
        var content = ""
        while let scalar = current {
            if isMultiline ? (scalar == quote && peek(1) == quote && peek(2) == quote) : (scalar == quote || scalar == "\n") {
                break
            }
            if isBasic && scalar == "\\" {
                if isNULEscape { report("a string or key cannot hold the NUL character (\\u0000)") }
                content.unicodeScalars.append(scalar)
                advance()
            }
            if let escaped = current { content.unicodeScalars.append(escaped) }
            advance()
        }
        advance(by: isMultiline ? 3 : 1)
        // A multi-line string may end with up to two more quotes that belong to its content.
        while isMultiline && current == quote { advance() }
        return content
    }

    /// Whether the cursor is on `\u0000` or `\U00000000`.
    private var isNULEscape: Bool {
        let digits = switch peek(1) {
        case "u": 4
        case "U": 8
        default: 0
        }
        return digits > 0 && (2..<2 + digits).allSatisfy { peek($0) == "0" }
    }

    // MARK: - Limits and problems

    /// Whether `depth` is within ``SourceLimits/nesting``; if not, reports it and ends the scan:
    /// what lies deeper is neither looked at nor given to TOMLKit.
    private mutating func isWithinNesting(_ depth: Int, at place: SourcePosition) -> Bool {
        guard depth > SourceLimits.nesting else { return true }
        return stop(at: place, "keys, tables and arrays nest \(depth) deep here; at most \(SourceLimits.nesting) levels are allowed")
    }

    /// Whether element `element` (from 0) of the array at `path` is within
    /// ``SourceLimits/arrayElements``; if not, reports it and ends the scan.
    private mutating func isWithinArrayLimit(_ element: Int, of path: TOMLPath, at place: SourcePosition) -> Bool {
        guard element >= SourceLimits.arrayElements else { return true }
        let name = path.dottedKeys.isEmpty ? "an array" : "'\(path.dottedKeys.echoed())'"
        return stop(at: place, "\(name) has more than \(SourceLimits.arrayElements) elements; no array may have more")
    }

    /// Reports a limit crossed at `place` and ends the scan there; always false.
    private mutating func stop(at place: SourcePosition, _ message: String) -> Bool {
        problems.append((place, message))
        index = scalars.count
        return false
    }

    private mutating func report(_ message: String) {
        problems.append((position, message))
    }

    // MARK: - Cursor

    /// TOML allows no control character but tab and line ends anywhere, not even in comments or
    /// strings (there they must be escaped); toml++ asserts on some of them in keys.
    private func isRawControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x0D: peek(1) != "\n"
        case 0x00...0x1F, 0x7F: true
        default: false
        }
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance(by count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if !foundRawControl, isRawControl(scalars[index]) {
                foundRawControl = true
                let hex = String(scalars[index].value, radix: 16, uppercase: true)
                let code = String(repeating: "0", count: 4 - hex.count) + hex
                report("a raw control character (U+\(code)) is not allowed in TOML: "
                    + "write it as an escape (\\u\(code)) inside a string, or remove it")
            }
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
    }

    /// Skips blanks and comments, and line breaks too when `acrossLines`.
    private mutating func skipTrivia(acrossLines: Bool) {
        while let scalar = current {
            if scalar == " " || scalar == "\t" || (acrossLines && (scalar == "\n" || scalar == "\r")) {
                advance()
            } else if scalar == "#" {
                while let next = current, next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    private mutating func record(key path: TOMLPath, at position: SourcePosition) {
        guard recordsPositions else { return }
        // The first mention wins: `[[flow]]` as a whole is where the first flow begins.
        if keys[path] == nil { keys[path] = position }
    }
}
