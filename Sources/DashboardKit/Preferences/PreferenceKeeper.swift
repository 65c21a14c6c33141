/// The preferences of one dashboard run: what its file held at start, and each choice the user
/// makes on screen (a theme picked with `t`, a sort), written back at once so that the next run
/// starts the same way. A write that fails is reported once and the dashboard goes on: the work
/// on screen matters more than a remembered theme.
package struct PreferenceKeeper: Sendable {
    /// Where they are kept.
    package let file: PreferencesFile
    /// What the file holds (or will, once a write succeeds).
    package private(set) var preferences: Preferences
    /// Whether a write failed already: the log says so once, not at every key.
    private var reportedFailure = false

    /// The preferences in `file`, as read at start.
    package init(file: PreferencesFile, preferences: Preferences) {
        self.file = file
        self.preferences = preferences
    }

    /// The preferences where `--config` (`explicit`) or the environment puts them (see
    /// ``PreferencesFile/located(explicit:environment:)``), read with `parser`; nil when there is
    /// nowhere to keep them (no `HOME`).
    package static func open(
        explicit: String?, environment: [String: String], parser: PreferencesParser = .dashboard
    ) throws(PreferencesError) -> PreferenceKeeper? {
        guard let file = PreferencesFile.located(explicit: explicit, environment: environment) else { return nil }
        return PreferenceKeeper(file: file, preferences: try file.load(parser))
    }

    /// Applies `change`, and writes the file when it changed something. Returns the write's
    /// error the first time one fails, for the log; nil otherwise.
    package mutating func remember(_ change: (inout Preferences) -> Void) -> PreferencesWriteError? {
        var changed = preferences
        change(&changed)
        guard changed != preferences else { return nil }
        preferences = changed
        do {
            try file.save(changed)
            return nil
        } catch {
            defer { reportedFailure = true }
            return reportedFailure ? nil : error
        }
    }
}
