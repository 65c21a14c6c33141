import TaskFlow

/// The event log while it has the keys (`L` gives them to it, `L` or Esc takes them back): a
/// cursor on one line, a search typed with `/` whose matches `n` and `N` visit (and the log
/// highlights), Enter selecting the line's flow or job in its view, and `f` narrowing the log to
/// the flow selected in the flows view. The cursor is a line number (``EventLog`` numbering), so
/// it stays on its line while new lines arrive.
package struct LogFocus: Sendable, Hashable {
    /// The line under the cursor, by number; nil for the newest line shown.
    package var cursor: Int?
    /// The search as typed; empty highlights nothing.
    package var search = ""
    /// When set, the log shows only this flow's lines.
    package var onlyFlow: FlowID?

    /// The log with the cursor on its newest line.
    package init() {}

    /// What the log's keys do while it has them.
    package enum Action: Sendable, Hashable {
        case up, down, pageUp, pageDown, first, last, search, nextMatch, previousMatch, select, narrow, leave
    }

    /// The log's keys while it has them: the one table that the key handling and the help read
    /// (as a view's ``DashboardTab/keys``), so they cannot disagree.
    static let keyRows: [KeyRow<Action>] = [
        KeyRow(
            keys: "↑ / k, ↓ / j", action: "move along the log's lines",
            bindings: [
                .up: .up, .character("k"): .up, .down: .down, .character("j"): .down, .pageUp: .pageUp, .pageDown: .pageDown,
                .home: .first, .end: .last,
            ]),
        KeyRow(
            keys: "/ · n N", action: "search · next / previous match",
            bindings: [.character("/"): .search, .character("n"): .nextMatch, .character("N"): .previousMatch]),
        KeyRow(keys: "Enter", action: "select the line's flow or job", bindings: [.enter: .select]),
        KeyRow(keys: "f", action: "only the selected flow's lines", bindings: [.character("f"): .narrow]),
        KeyRow(keys: "L / Esc", action: "give the keys back to the view", bindings: [.character("L"): .leave, .escape: .leave]),
    ]

    /// The status bar's hints while the log has the keys: one per action the bar names, where
    /// the help joins `/` and `n N` in one row.
    static let hints = [
        KeyHint("↑↓", "line"), KeyHint("/", "search"), KeyHint("n N", "match"), KeyHint("Enter", "select"),
        KeyHint("f", "this flow"), KeyHint("L", "leave"),
    ]
}

/// A line of the log as the focused log shows it: its number and the line.
package struct NumberedLogLine: Sendable, Hashable {
    /// Its number in the ``EventLog``.
    package let number: Int
    /// The line.
    package let entry: LogEntry
}

extension SharedState {
    /// The log's lines as shown while it has the keys: every kept line, or with ``LogFocus/onlyFlow``
    /// the lines of that flow only.
    package var focusedLogLines: [NumberedLogLine] {
        let log = board.log
        let kept = log.entries.suffix(log.capacity)
        let lines = kept.indices.map { NumberedLogLine(number: log.number(ofIndex: $0), entry: kept[$0]) }
        guard let flow = logFocus?.onlyFlow else { return lines }
        return lines.filter { $0.entry.subject == .flow(flow) }
    }

    /// The index in ``focusedLogLines`` of the cursor's line (the newest when it is not shown).
    package func logCursorIndex(in lines: [NumberedLogLine]) -> Int? {
        guard !lines.isEmpty else { return nil }
        guard let cursor = logFocus?.cursor else { return lines.count - 1 }
        return lines.lastIndex { $0.number <= cursor } ?? 0
    }

    /// `L`: the log takes the keys, or gives them back.
    mutating func toggleLogFocus() {
        logFocus = logFocus == nil ? LogFocus() : nil
        notice = logFocus == nil ? nil : "event log: ↑↓ lines · / search · n N matches · Enter selects · f this flow · L leaves"
    }

    /// What a key did while the log had the keys.
    enum LogKeyOutcome: Equatable {
        /// Not one of the log's keys: the global keys come next.
        case notMine
        /// Done.
        case handled
        /// Enter: the model is to select this flow or job in its view.
        case select(LogSubject)
    }

    /// A key while the log has the keys; `selectedFlow` is the flows view's selection (`f`).
    mutating func handleLogKey(_ key: Key, selectedFlow: FlowID?) -> LogKeyOutcome {
        guard let action = LogFocus.keyRows.lazy.compactMap({ $0.bindings[key] }).first else { return .notMine }
        let lines = focusedLogLines
        let current = logCursorIndex(in: lines)
        switch action {
        case .up: moveLogCursor(to: current.map { $0 - 1 }, in: lines)
        case .down: moveLogCursor(to: current.map { $0 + 1 }, in: lines)
        case .pageUp: moveLogCursor(to: current.map { $0 - panes.logRows }, in: lines)
        case .pageDown: moveLogCursor(to: current.map { $0 + panes.logRows }, in: lines)
        case .first: moveLogCursor(to: 0, in: lines)
        case .last: moveLogCursor(to: lines.count - 1, in: lines)
        case .search: mode = .filter
        case .nextMatch: findMatch(forward: true, from: current, in: lines)
        case .previousMatch: findMatch(forward: false, from: current, in: lines)
        case .narrow: narrowLog(to: selectedFlow)
        case .leave: toggleLogFocus()
        case .select:
            guard let current, let subject = lines[current].entry.subject else {
                notice = "this line is about no flow or job"
                return .handled
            }
            logFocus = nil
            return .select(subject)
        }
        return .handled
    }

    /// A key typed in the log's search (``Mode/filter`` while the log has the keys): the
    /// cursor goes to the first match at or above it as the search is typed.
    mutating func editLogSearch(_ key: Key) {
        guard var focus = logFocus else { return }
        switch key {
        case .character(let character): focus.search.append(character)
        case .backspace: if !focus.search.isEmpty { focus.search.removeLast() }
        case .enter: mode = .normal
        case .escape:
            mode = .normal
            focus.search = ""
        default: return
        }
        logFocus = focus
        guard !focus.search.isEmpty, case .character = key else { return }
        let lines = focusedLogLines
        if let current = logCursorIndex(in: lines), !lines[current].entry.text.lowercased().contains(focus.search.lowercased()) {
            findMatch(forward: false, from: current, in: lines)
        }
    }

    /// Moves the cursor to the line at `index`, clamped to the lines shown.
    private mutating func moveLogCursor(to index: Int?, in lines: [NumberedLogLine]) {
        guard let index, !lines.isEmpty else { return }
        logFocus?.cursor = lines[min(max(index, 0), lines.count - 1)].number
    }

    /// `n` / `N`: the next (or previous) line containing the search, wrapping around.
    private mutating func findMatch(forward: Bool, from current: Int?, in lines: [NumberedLogLine]) {
        guard let search = logFocus?.search.lowercased(), !search.isEmpty else {
            notice = "/ types a search first"
            return
        }
        guard let current else { return }
        let count = lines.count
        for step in 1...count {
            let index = ((current + (forward ? step : -step)) % count + count) % count
            if lines[index].entry.text.lowercased().contains(search) {
                logFocus?.cursor = lines[index].number
                notice = nil
                return
            }
        }
        notice = "no line matches \"\(search)\""
    }

    /// `f`: the log shows only `flow`'s lines, or every line again.
    private mutating func narrowLog(to flow: FlowID?) {
        guard logFocus?.onlyFlow == nil else {
            logFocus?.onlyFlow = nil
            notice = "event log: every line"
            return
        }
        guard let flow else {
            notice = "f shows the selected flow's lines: select a flow first"
            return
        }
        logFocus?.onlyFlow = flow
        logFocus?.cursor = nil
        notice = "event log: only \(flow)'s lines (f shows every line)"
    }
}
