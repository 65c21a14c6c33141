import CNcurses
import DashboardKit

/// A theme turned into ncurses attributes: one colour pair per style role, colours degraded
/// to the terminal's depth, attributes kept in every depth (monochrome relies on them).
@MainActor
struct StylePalette {
    /// The theme the palette was built for.
    let themeName: String
    private var entries: [StyleRole: (attributes: attr_t, pair: Int16)] = [:]

    /// Builds the pairs for `theme` (re-initialising the pairs of a previous theme).
    init(theme: Theme, depth: ColorDepth) {
        themeName = theme.name
        for (offset, role) in StyleRole.allCases.enumerated() {
            let style = theme.style(for: role)
            var pair: Int16 = 0
            let foreground = style.foreground?.paletteIndex(for: depth) ?? -1
            let background = style.background?.paletteIndex(for: depth) ?? -1
            if depth != .monochrome, foreground != -1 || background != -1, offset + 1 < Int(tf_color_pairs()) {
                pair = Int16(offset + 1)
                init_pair(pair, Int16(foreground), Int16(background))
            }
            entries[role] = (Self.attributes(of: style), pair)
        }
    }

    /// The attributes and pair of `role`.
    func style(for role: StyleRole) -> (attributes: attr_t, pair: Int16) {
        entries[role] ?? (tf_a_normal(), 0)
    }

    private static func attributes(of style: TextStyle) -> attr_t {
        var attributes = tf_a_normal()
        if style.bold { attributes |= tf_a_bold() }
        if style.underline { attributes |= tf_a_underline() }
        if style.reverse { attributes |= tf_a_reverse() }
        if style.dim { attributes |= tf_a_dim() }
        return attributes
    }
}
