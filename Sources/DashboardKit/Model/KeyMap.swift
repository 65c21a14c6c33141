/// What a key of every view asks the model to do (each view's own keys are its
/// ``DashboardTab/Action``).
package enum KeyAction: Sendable, Hashable {
    /// Scroll the event log back a page.
    case logBack
    /// Scroll the event log forward a page.
    case logForward
    /// Give the keys to the event log (search, select its lines' flows), or back.
    case focusLog
    /// Show the next view (see ``DashboardModel/tabs``).
    case switchTab
    /// Freeze or unfreeze the view.
    case pause
    /// Switch to the next theme.
    case theme
    /// Open the help overlay.
    case help
    /// Quit: roll back what runs first; at once when quitting already.
    case quit
}

/// The keys of every view, after the shown view's own: the one table that the model's key
/// handling, the help overlay, the status bar and `taskflow --help` read with the views' own.
package enum KeyMap {
    /// Every key of every view, in the order the help lists them.
    package static let rows: [KeyRow<KeyAction>] = [
        KeyRow(
            keys: "PgUp/PgDn · L", action: "scroll the event log · L: search it", hint: KeyHint("L", "log"),
            bindings: [.pageUp: .logBack, .pageDown: .logForward, .character("L"): .focusLog]),
        KeyRow(keys: "Tab", action: "views: flows, job queues, stored jobs", bindings: [.tab: .switchTab]),
        KeyRow(keys: "p", action: "pause / resume the view (not the work)", hint: KeyHint("p", "pause"), bindings: [.character("p"): .pause]),
        KeyRow(keys: "t", action: "next theme", hint: KeyHint("t", "theme"), bindings: [.character("t"): .theme]),
        KeyRow(keys: "?", action: "this help (any key closes it)", hint: KeyHint("?", "help"), bindings: [.character("?"): .help]),
        KeyRow(keys: "q", action: "quit after rolling back; q again: now", hint: KeyHint("q", "quit"), bindings: [.character("q"): .quit]),
    ]

    /// The actions that still act while quitting: moving around, the theme, `q` to exit at
    /// once. Pause and the help would hide the rollback the user waits for.
    static let whileQuitting: Set<KeyAction> = [.logBack, .logForward, .focusLog, .switchTab, .theme, .quit]

    /// The hints the status bar shows first, before the shown view's: a narrow screen cuts from
    /// the right, and help and quit must always show.
    static let leadingHints = ["?", "q"]

    /// What `key` does in the normal mode or while `quitting`, if anything.
    static func action(for key: Key, quitting: Bool) -> KeyAction? {
        let action = rows.lazy.compactMap { $0.bindings[key] }.first
        return action.flatMap { !quitting || whileQuitting.contains($0) ? $0 : nil }
    }

    /// The views `taskflow` shows, for its `--help`.
    static let builtInTabs: [any DashboardTab] = [FlowsTab(), QueuesTab(queues: []), StoreTab(name: "")]

    /// The key list as one paragraph, for `taskflow --help`: the keys of every view, then each
    /// built-in view's own.
    package static var summary: String {
        let every = rows.map(\.help)
        let sections = [every.text] + builtInTabs.map { "in the \($0.name) view: \($0.keyHelp.text)" }
        return sections.joined(separator: "; ")
    }
}

extension [KeyHelp] {
    /// `keys: action · keys: action`.
    fileprivate var text: String {
        map { "\($0.keys): \($0.action)" }.joined(separator: " · ")
    }
}
