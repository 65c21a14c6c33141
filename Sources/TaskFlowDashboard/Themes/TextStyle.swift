/// How a theme shows one style role: colours and attributes.
public struct TextStyle: Sendable, Hashable {
    /// Foreground; nil keeps the terminal's.
    public var foreground: ThemeColor?
    /// Background; nil keeps the terminal's.
    public var background: ThemeColor?
    /// Bold (bright) text.
    public var bold = false
    /// Underlined text.
    public var underline = false
    /// Foreground and background swapped.
    public var reverse = false
    /// Faint text.
    public var dim = false

    /// A style; by default the terminal's plain text.
    public init(
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
    public static let plain = TextStyle()
}
