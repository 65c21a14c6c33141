/// What a key asks the model to do in ``Mode/normal`` (and ``Mode/quitting``).
public enum KeyAction: Sendable, Hashable {
    /// Select the flow above, or scroll the step tree up (see ``Focus``).
    case up
    /// Select the flow below, or scroll the step tree down.
    case down
    /// Select the first visible flow.
    case first
    /// Select the last visible flow.
    case last
    /// Scroll the event log back a page.
    case logBack
    /// Scroll the event log forward a page.
    case logForward
    /// Move the arrows between the flow list and the step tree.
    case switchFocus
    /// Show the next view: flows, job queues, the job store's jobs.
    case switchTab
    /// Queue the selected failed job again now (queues and store views).
    case retryJob
    /// Pause or resume the selected job queue (queues view).
    case pauseQueue
    /// Tell the job store conditions changed: parked jobs run again.
    case wakeParked
    /// Switch the condition the store's jobs wait for (the outbox demo's network).
    case switchCondition
    /// Clear the title filter.
    case clearFilter
    /// Cancel the selected flow, or remove the selected job in the jobs view.
    case cancel
    /// Cancel every flow a cancel still affects.
    case cancelAll
    /// Ask whether to undo the selected completed write flow.
    case undo
    /// Freeze or unfreeze the view.
    case pause
    /// Start typing a title filter.
    case filter
    /// Switch to the next theme.
    case theme
    /// Open the help overlay.
    case help
    /// Quit: roll back what runs first; at once when quitting already.
    case quit
}

/// One row of the key table: keys, what they do, and how the screens name them.
public struct KeyRow: Sendable {
    /// The keys as the help shows them, e.g. `↑ / k, ↓ / j`.
    public let keys: String
    /// What they do, short enough for the help overlay at the minimum screen size (38 columns).
    public let action: String
    /// The status bar's hint (`↑↓`, `select`), nil for keys the status bar leaves out.
    public let hint: (keys: String, word: String)?
    /// Which key does which action.
    public let bindings: [Key: KeyAction]
}

/// The dashboard's keys: the one table that the model's key handling, the help overlay, the
/// status bar and `taskflow --help` all read, so they cannot disagree.
public enum KeyMap {
    /// Every key of the normal mode, in the order the help lists them.
    public static let rows: [KeyRow] = [
        KeyRow(
            keys: "↑ / k, ↓ / j", action: "select a flow; scroll steps in detail", hint: ("↑↓", "select"),
            bindings: [.up: .up, .character("k"): .up, .down: .down, .character("j"): .down]),
        KeyRow(
            keys: "Home / End", action: "select the first / the last flow", hint: nil,
            bindings: [.home: .first, .end: .last]),
        KeyRow(
            keys: "PgUp / PgDn", action: "scroll the event log back and forth", hint: nil,
            bindings: [.pageUp: .logBack, .pageDown: .logForward]),
        KeyRow(
            keys: "Enter", action: "focus the flow list / the detail pane", hint: ("Enter", "detail"),
            bindings: [.enter: .switchFocus]),
        KeyRow(
            keys: "Tab", action: "views: flows, job queues, stored jobs", hint: nil,
            bindings: [.tab: .switchTab]),
        KeyRow(
            keys: "c", action: "cancel the flow: its steps roll back", hint: ("c", "cancel"),
            bindings: [.character("c"): .cancel]),
        KeyRow(
            keys: "r, P, w, n", action: "retry job, pause queue, wake, network", hint: nil,
            bindings: [
                .character("r"): .retryJob, .character("P"): .pauseQueue, .character("w"): .wakeParked,
                .character("n"): .switchCondition,
            ]),
        KeyRow(
            keys: "C", action: "cancel every running and waiting flow", hint: ("C", "cancel all"),
            bindings: [.character("C"): .cancelAll]),
        KeyRow(
            keys: "u, then y / n", action: "undo a completed write flow", hint: ("u", "undo"),
            bindings: [.character("u"): .undo]),
        KeyRow(
            keys: "p", action: "pause / resume the view (not the work)", hint: ("p", "pause"),
            bindings: [.character("p"): .pause]),
        KeyRow(
            keys: "/", action: "filter flows by title; Esc clears it", hint: ("/", "filter"),
            bindings: [.character("/"): .filter, .escape: .clearFilter]),
        KeyRow(
            keys: "t", action: "next theme", hint: ("t", "theme"),
            bindings: [.character("t"): .theme]),
        KeyRow(
            keys: "?", action: "this help (any key closes it)", hint: ("?", "help"),
            bindings: [.character("?"): .help]),
        KeyRow(
            keys: "q", action: "quit after rolling back; q again: now", hint: ("q", "quit"),
            bindings: [.character("q"): .quit]),
    ]

    /// The actions that still act while quitting: moving around, the theme, `q` to exit at
    /// once. Cancelling is moot then (every flow is being cancelled), and undo, pause, filter
    /// typing and the help would hide the rollback the user waits for.
    static let whileQuitting: Set<KeyAction> = [
        .up, .down, .first, .last, .logBack, .logForward, .switchFocus, .switchTab, .clearFilter, .theme, .quit,
    ]

    /// The status bar's hints. Help and quit come first: a narrow screen cuts from the right,
    /// and those two must always show.
    public static let hints: [(keys: String, word: String)] = {
        let all = rows.compactMap(\.hint)
        let first = ["?", "q"]
        return first.compactMap { key in all.first { $0.keys == key } } + all.filter { !first.contains($0.keys) }
    }()

    /// What the status bar hint `keys` stands for.
    static func action(ofHint keys: String) -> KeyAction? {
        rows.first { $0.hint?.keys == keys }?.bindings.values.first
    }

    /// The key list as one paragraph, for `taskflow --help`.
    public static var summary: String {
        rows.map { "\($0.keys): \($0.action)" }.joined(separator: " · ")
    }

    /// What `key` does in the normal mode or while `quitting`, if anything (only ``Mode/normal`` and ``Mode/quitting`` read
    /// this table; the other modes' few keys are answers, see ``DashboardModel/handle(_:)``).
    static func action(for key: Key, quitting: Bool) -> KeyAction? {
        let action = rows.lazy.compactMap { $0.bindings[key] }.first
        return action.flatMap { !quitting || whileQuitting.contains($0) ? $0 : nil }
    }
}
