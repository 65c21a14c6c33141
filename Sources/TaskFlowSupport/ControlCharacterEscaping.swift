extension String {
    /// The text with every character that could act on a terminal, or disguise what is shown,
    /// written as a visible escape, `\u{1B}` for ESC, the way `ls -q` and htop defuse file
    /// names: C0 and C1 controls (escape sequences, carriage returns and newlines that would
    /// forge or hide a line), DEL, the Unicode line and paragraph separators, the bidirectional
    /// overrides, embeddings, isolates and marks that reorder what is shown (a title can read
    /// `exe.jpg`), and the other invisible format characters (zero-width spaces, word joiners,
    /// byte order marks, soft hyphens, tags) that hide text or make two names look alike.
    /// Everything else, accents, CJK and emoji included, is kept as is: the zero-width joiner
    /// and non-joiner, which emoji sequences and some scripts need, too. Printable text is
    /// returned unchanged, so escaping twice is the same as escaping once.
    ///
    /// Use it on every string that came from a user's file or a job before it reaches a
    /// terminal: the dashboard's cell grid, headless output and `taskflow jobs` all do.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isEscapedWhenShown) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.isEscapedWhenShown {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

extension Character {
    /// Whether ``Swift/String/escapingControlCharacters`` writes part of this character as an
    /// escape: what measures text as shown counts the escape's columns.
    package var isEscapedWhenShown: Bool {
        unicodeScalars.contains(where: \.isEscapedWhenShown)
    }
}

extension Unicode.Scalar {
    /// Whether ``Swift/String/escapingControlCharacters`` writes this scalar as an escape.
    fileprivate var isEscapedWhenShown: Bool {
        switch value {
        case 0x20...0x7E: false                              // printable ASCII, the common case
        case 0x00...0x1F, 0x7F...0x9F: true                  // C0, DEL, C1
        case 0x2028, 0x2029: true                            // line and paragraph separators
        case 0x200C, 0x200D: false                           // (non-)joiners: emoji sequences, scripts
        // Bidi embeddings, overrides, isolates and marks, zero-width spaces, BOM, soft hyphen, tags.
        default: properties.generalCategory == .format
        }
    }
}
