/// How many colours a terminal can show; theme colours are degraded to fit.
package enum ColorDepth: Int, Sendable, Hashable, CaseIterable {
    /// No colour (or `NO_COLOR` set): bold, reverse and underline only.
    case monochrome = 0
    /// The eight basic colours.
    case eight = 8
    /// The basic colours and their bright variants.
    case sixteen = 16
    /// xterm's 256-colour palette.
    case full = 256

    /// The number of palette entries.
    package var colors: Int { rawValue }

    /// The depth for a terminal reporting `colors` colours.
    package init(terminalColors colors: Int) {
        switch colors {
        case 256...: self = .full
        case 16...: self = .sixteen
        case 8...: self = .eight
        default: self = .monochrome
        }
    }
}
