/// The characters used for lines, bars and markers: Unicode box drawing in a UTF-8 locale,
/// plain ASCII otherwise (so a terminal without UTF-8 shows no mojibake).
package struct Glyphs: Sendable, Hashable {
    /// A horizontal border.
    package let horizontal: Unicode.Scalar
    /// A vertical border.
    package let vertical: Unicode.Scalar
    /// Border corners.
    package let topLeft: Unicode.Scalar
    /// Border corners.
    package let topRight: Unicode.Scalar
    /// Border corners.
    package let bottomLeft: Unicode.Scalar
    /// Border corners.
    package let bottomRight: Unicode.Scalar
    /// A filled cell of a progress bar.
    package let filled: Unicode.Scalar
    /// An empty cell of a progress bar.
    package let empty: Unicode.Scalar
    /// Whether text may keep non-ASCII characters.
    package let unicode: Bool

    /// Box drawing and block characters.
    package static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        filled: "█", empty: "░", unicode: true)

    /// ASCII only.
    package static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        filled: "#", empty: ".", unicode: false)

    /// Text as this glyph set can show it: in ASCII, the few symbols the dashboard and the engine
    /// use become ASCII look-alikes and anything else non-ASCII becomes `?`.
    package func fold(_ text: String) -> String {
        guard !unicode, !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            folded.append(contentsOf: scalar.isASCII ? String(scalar).unicodeScalars : Self.asciiFallback(scalar).unicodeScalars)
        }
        return String(folded)
    }

    private static func asciiFallback(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "×": "x"
        case "▸", "→": ">"
        case "◂", "←": "<"
        case "—", "–": "-"
        case "…": "..."
        case "↑": "Up"
        case "↓": "Down"
        case "·": "|"
        case "⚠": "!"
        default: "?"
        }
    }
}
