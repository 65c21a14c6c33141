/// The status bar's short form of a key: `↑↓ select`.
package struct KeyHint: Sendable, Hashable {
    /// The key as the bar shows it: `↑↓`.
    package let keys: String
    /// One or two words: `select`.
    package let word: String

    package init(_ keys: String, _ word: String) {
        self.keys = keys
        self.word = word
    }
}

/// One row of a key table: keys, what they do, how the screens name them, and which action each
/// key stands for. The global table (``KeyMap``) and each view's own (``DashboardTab/keys``) are
/// made of these, so that the model's key handling, the help overlay, the status bar and
/// `taskflow --help` all read one table and cannot disagree.
package struct KeyRow<Action: Hashable & Sendable>: Sendable {
    /// The keys as the help shows them, e.g. `↑ / k, ↓ / j`.
    package let keys: String
    /// What they do, short enough for the help overlay at the minimum screen size (38 columns).
    package let action: String
    /// The status bar's hint, nil for keys the status bar leaves out.
    package let hint: KeyHint?
    /// Which key does which action.
    package let bindings: [Key: Action]

    package init(keys: String, action: String, hint: KeyHint? = nil, bindings: [Key: Action]) {
        self.keys = keys
        self.action = action
        self.hint = hint
        self.bindings = bindings
    }

    /// How the help overlay and `--help` list the row.
    package var help: KeyHelp { KeyHelp(keys: keys, action: action) }
}

/// A key table's row as the help lists it, whatever the actions behind it.
package struct KeyHelp: Sendable, Hashable {
    /// The keys: `Home / End`.
    package let keys: String
    /// What they do.
    package let action: String
}
