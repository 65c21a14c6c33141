/// How a theme shows one style role: colours and attributes.
package struct TextStyle: Sendable, Hashable {
    /// Foreground; nil keeps the terminal's.
    package var foreground: ThemeColor?
    /// Background; nil keeps the terminal's.
    package var background: ThemeColor?
    /// Bold (bright) text.
    package var bold = false
    /// Underlined text.
    package var underline = false
    /// Foreground and background swapped.
    package var reverse = false
    /// Faint text.
    package var dim = false

    /// A style; by default the terminal's plain text.
    package init(
        foreground: ThemeColor? = nil, background: ThemeColor? = nil,
        bold: Bool = false, underline: Bool = false, reverse: Bool = false, dim: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
        self.dim = dim
    }

    /// The terminal's plain text.
    package static let plain = TextStyle()
}
