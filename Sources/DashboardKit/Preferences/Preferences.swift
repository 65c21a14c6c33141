/// What the dashboard remembers between runs, read from and written to `config.toml` (see
/// ``PreferencesFile``): the theme, the sort of each view, the mouse, the history and the
/// warnings' thresholds. Every field is optional: what the file does not say, the command line
/// or the built-in default decides. A flag given on the command line wins over the file for that
/// run, and is not written back.
package struct Preferences: Sendable, Hashable {
    /// The theme's name, or a path to a theme file (as `--theme` takes).
    package var theme: String?
    /// Whether the dashboard takes the mouse (`--no-mouse` turns it off for one run).
    package var mouse: Bool?
    /// How many finished flows stay listed (as `--history`).
    package var history: Int?
    /// Each view's sort, by the view's preference key (``DashboardTab/preferenceKey``).
    package var sorts: [String: SavedSort] = [:]
    /// The warnings' thresholds (`[warnings]`), the keys the table leaves out at their
    /// defaults; nil without the table (every default).
    package var warnings: WarningThresholds?

    /// Nothing set: every choice is the command line's or the default.
    package init(
        theme: String? = nil, mouse: Bool? = nil, history: Int? = nil, sorts: [String: SavedSort] = [:],
        warnings: WarningThresholds? = nil
    ) {
        self.theme = theme
        self.mouse = mouse
        self.history = history
        self.sorts = sorts
        self.warnings = warnings
    }
}

/// A view's sort as the preferences keep it: a column named as its header names it
/// (lowercased), and the direction.
package struct SavedSort: Sendable, Hashable {
    /// The column's name.
    package var column: String
    /// Smallest first (`<` in the header's arrow), else largest first.
    package var ascending: Bool

    /// A sort by `column`, `ascending` or not.
    package init(column: String, ascending: Bool) {
        self.column = column
        self.ascending = ascending
    }
}
