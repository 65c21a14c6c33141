extension KeyHint {
    /// The hint's ``keys`` cut into the pieces the status bar shows, each with the key it stands
    /// for (nil for the spaces between): `↑↓` is ↑ then ↓, `C R` is C, a space, R, `Enter` is
    /// Enter. Joined, the pieces' texts are ``keys`` exactly, so a widget that draws them one
    /// after the other knows which cells mean which key (a click there acts as the key).
    package var keyParts: [(text: String, key: Key?)] {
        var parts: [(text: String, key: Key?)] = []
        for (index, word) in keys.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { parts.append((" ", nil)) }
            if let key = Self.named[String(word)] {
                parts.append((String(word), key))
            } else if word.count == 1, let character = word.first {
                parts.append((String(word), Self.arrows[character] ?? .character(character)))
            } else if word.allSatisfy({ Self.arrows[$0] != nil }) {
                // `↑↓`: one arrow after the other, each its own key.
                parts += word.map { (String($0), Self.arrows[$0]) }
            } else {
                parts.append((String(word), nil))
            }
        }
        return parts
    }

    /// The one key the hint stands for, when it shows exactly one (its word then acts as it).
    package var onlyKey: Key? {
        let keys = keyParts.compactMap(\.key)
        return keys.count == 1 ? keys.first : nil
    }

    /// Keys the hints name by a word.
    private static let named: [String: Key] = [
        "Enter": .enter, "Esc": .escape, "Tab": .tab, "PgUp": .pageUp, "PgDn": .pageDown, "Home": .home, "End": .end,
    ]

    /// The arrows hints show.
    private static let arrows: [Character: Key] = ["↑": .up, "↓": .down, "←": .left, "→": .right]
}
