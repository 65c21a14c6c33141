/// A named mapping from style roles to text styles, loaded from a TOML file in `Themes/`.
/// Roles a theme leaves out use ``fallback``.
package struct Theme: Sendable, Hashable {
    /// The theme's name (its file name without `.toml`).
    package let name: String
    /// The styles it sets.
    package let styles: [StyleRole: TextStyle]

    /// A theme.
    package init(name: String, styles: [StyleRole: TextStyle]) {
        self.name = name
        self.styles = styles
    }

    /// The style for `role`: the theme's own, else the built-in fallback's.
    package func style(for role: StyleRole) -> TextStyle {
        styles[role] ?? Self.fallback.styles[role] ?? .plain
    }

    /// Used when no theme file can be found, and for roles a theme omits: readable in any
    /// terminal because it relies on attributes more than on colours.
    package static let fallback = Theme(name: "built-in", styles: [
        .header: TextStyle(reverse: true),
        .title: TextStyle(bold: true),
        .selection: TextStyle(reverse: true),
        .keyHint: TextStyle(bold: true),
        .paused: TextStyle(bold: true, reverse: true),
        .notice: TextStyle(bold: true),
        .dim: TextStyle(dim: true),
        .statusRunning: TextStyle(bold: true),
        .statusRollingBack: TextStyle(underline: true),
        .statusFailed: TextStyle(bold: true, underline: true),
        .lockWrite: TextStyle(bold: true, reverse: true),
        .lockRead: TextStyle(bold: true),
        .progressFilled: TextStyle(bold: true),
        .logError: TextStyle(bold: true),
    ])
}
