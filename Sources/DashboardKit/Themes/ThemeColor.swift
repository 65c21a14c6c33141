/// A colour as a theme file writes it: a name (`"green"`, `"bright-red"`, `"default"`), a
/// 0–255 palette index, or `"#RRGGBB"`.
package enum ThemeColor: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case terminalDefault
    /// A palette index: 0–7 the basic colours, 8–15 their bright variants, 16–255 xterm's.
    case indexed(Int)
    /// A true colour, matched to the nearest palette colour the terminal has.
    case rgb(red: Int, green: Int, blue: Int)

    /// The sixteen colour names, by palette index.
    static let names = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow",
        "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// Parses a name or `#RRGGBB`; nil when it is neither.
    package init?(text: String) {
        let lowered = String(text.lowercased().map { $0 == "_" ? "-" : $0 })
        if lowered == "default" || lowered == "none" {
            self = .terminalDefault
        } else if lowered == "gray" || lowered == "grey" {
            self = .indexed(8)
        } else if let index = Self.names.firstIndex(of: lowered) {
            self = .indexed(index)
        } else if lowered.hasPrefix("#"), lowered.count == 7, let value = Int(lowered.dropFirst(), radix: 16) {
            self = .rgb(red: value >> 16 & 0xFF, green: value >> 8 & 0xFF, blue: value & 0xFF)
        } else {
            return nil
        }
    }

    /// Parses a palette index; nil outside 0–255.
    package init?(index: Int) {
        guard (0...255).contains(index) else { return nil }
        self = .indexed(index)
    }

    /// The palette index to use on a terminal with `depth`, or -1 for the terminal's default;
    /// nil in monochrome, where colours are dropped and only attributes remain.
    package func paletteIndex(for depth: ColorDepth) -> Int? {
        guard depth != .monochrome else { return nil }
        switch self {
        case .terminalDefault:
            return -1
        case .indexed(let index) where index < depth.colors:
            return index
        case .indexed(let index):
            return Palette.nearest(to: Palette.rgb(of: index), among: depth.colors)
        case .rgb(let red, let green, let blue):
            return Palette.nearest(to: (red, green, blue), among: depth.colors)
        }
    }
}
