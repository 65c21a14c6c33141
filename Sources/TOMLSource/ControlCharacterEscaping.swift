extension String {
    /// The text with every character that could act on a terminal instead of being shown
    /// written as a visible escape, `\u{1B}` for ESC, the way `ls -q` and htop defuse file
    /// names: C0 and C1 controls (escape sequences, carriage returns and newlines that would
    /// forge or hide a line), DEL, the Unicode line and paragraph separators, and the
    /// bidirectional overrides that reorder what is shown. Everything else, accents, CJK and
    /// emoji included, is kept as is. Printable text is returned unchanged, so escaping twice
    /// is the same as escaping once.
    ///
    /// Use it on every string that came from a user's file before it reaches a terminal.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscaping) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if Self.needsEscaping(scalar) {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// The text as an error message echoes a user's value: control characters escaped and, past
    /// `limit` characters, cut with "…", so a 100,000-character value still makes a short line.
    public func echoed(limit: Int = SourceLimits.echoedCharacters) -> String {
        let escaped = escapingControlCharacters
        guard escaped.count > limit else { return escaped }
        return escaped.prefix(limit) + "…"
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                  // C0, DEL, C1
        case 0x2028, 0x2029: true                            // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true  // bidi controls
        default: false
        }
    }
}
