extension DashboardModel {
    /// How many log lines PgUp/PgDn scroll.
    static let logPage = 5

    /// Applies a key press: each ``Mode`` reads the key in its own table; in the normal mode the
    /// shown view's keys come first, then ``KeyMap``'s. Returns the commands it asks for
    /// (cancel, undo, theme, exit); every other effect is a change of the model.
    package mutating func handle(_ key: Key) -> [Command] {
        switch shared.mode {
        case .help:
            // Any key closes the help, and does nothing else: the user was reading, not acting.
            shared.mode = .normal
            return []
        case .filter:
            if shared.logFocus != nil {
                shared.editLogSearch(key)
            } else {
                tabs[shownIndex].editFilter(key, &shared)
            }
            return []
        case .confirm(let question):
            return answer(question, key)
        case .normal, .quitting:
            // While quitting, a key's notice (the theme's name) shows until the next key, then
            // the quit's progress again: it says how to quit at once.
            shared.notice = nil
            if shared.logFocus != nil {
                switch shared.handleLogKey(key, selectedFlow: flows.selection) {
                case .handled: return []
                case .select(let subject):
                    select(subject)
                    return []
                case .notMine: break
                }
            } else if let commands = tabs[shownIndex].handle(key, &shared) {
                return commands
            }
            return KeyMap.action(for: key, quitting: shared.quitting).map { perform($0) } ?? []
        }
    }

    /// Carries out one action of ``KeyMap``.
    private mutating func perform(_ action: KeyAction) -> [Command] {
        switch action {
        case .logBack: shared.scrollLog(by: Self.logPage)
        case .logForward: shared.scrollLog(by: -Self.logPage)
        case .focusLog: shared.toggleLogFocus()
        case .switchTab: switchTab()
        case .pause:
            shared.togglePause()
            shared.notice = shared.paused ? "view paused: the engine keeps running (p resumes)" : nil
        case .theme: return [.cycleTheme]
        case .help: shared.mode = .help
        case .quit: return shared.quit()
        }
        return []
    }

    /// The answer to a view's question: `y` asks for what it offered, `n` or Esc for nothing;
    /// any other key leaves the question waiting.
    private mutating func answer(_ question: Question, _ key: Key) -> [Command] {
        guard let yes = Question.answer(key) else { return [] }
        shared.mode = .normal
        shared.notice = yes ? question.yesNotice : question.noNotice
        if yes, let line = question.yesLog { shared.note(line, level: .info, at: shared.now) }
        return yes ? question.yes : []
    }

    /// Enter on a log line: its flow selected in the flows view, or its job in the queues
    /// view, and that view shown.
    private mutating func select(_ subject: LogSubject) {
        switch subject {
        case .flow(let id):
            guard shared.board.flow(id) != nil else {
                shared.notice = "\(id) is no longer listed"
                return
            }
            let shared = self.shared
            update(FlowsTab.self) { $0.select(id, shared) }
            shownIndex = tabs.firstIndex { $0 is FlowsTab } ?? shownIndex
        case .job(let id):
            guard update(QueuesTab.self, { $0.select(id) }) == true else {
                shared.notice = "job \(id.rawValue) is no longer listed"
                return
            }
            shownIndex = tabs.firstIndex { $0 is QueuesTab } ?? shownIndex
        }
    }

    /// `Tab`: the next view; with only the flows, a notice says how to get more.
    private mutating func switchTab() {
        guard tabs.count > 1 else {
            shared.notice = "no jobs to show: play a scenario with [[queue]] tables (taskflow demo jobs), or start with --store PATH"
            return
        }
        shownIndex = (shownIndex + 1) % tabs.count
    }

    /// Whether `key` can do something now: the status bar greys out the hints of those that
    /// cannot (undo for a flow that cannot be undone, retry for a job that did not fail).
    package func offers(_ key: Key) -> Bool {
        shownTab.offers(key, shared) ?? true
    }

    /// The status bar's hints, in order, each with whether it can do something now: help and
    /// quit, the shown view's, then the other keys of every view.
    package var hints: [(hint: KeyHint, offered: Bool)] {
        let every = KeyMap.rows.compactMap(\.hint)
        let leading = KeyMap.leadingHints.compactMap { keys in every.first { $0.keys == keys } }
        // The log has the keys: help and quit, then the log's own.
        if shared.logFocus != nil { return (leading + LogFocus.hints).map { ($0, true) } }
        let trailing = every.filter { !KeyMap.leadingHints.contains($0.keys) }
        return leading.map { ($0, true) } + shownTab.hints(shared) + trailing.map { ($0, true) }
    }

    /// What the help lists: in a replay its own keys first, then the shown view's keys, then
    /// those of every view, leaving out the rows whose keys the replay takes over (Home / End, p).
    package var keyHelp: [KeyHelp] {
        if shared.logFocus != nil { return LogFocus.keyRows.map(\.help) + KeyMap.rows.map(\.help) }
        guard shared.replay != nil else { return shownTab.keyHelp + KeyMap.rows.map(\.help) }
        let taken = ReplayKeyMap.keys
        return ReplayKeyMap.rows.map(\.help) + shownTab.keyHelp(leavingOut: taken)
            + KeyMap.rows.filter { !$0.isTaken(by: taken) }.map(\.help)
    }
}
