import TaskFlow

extension DashboardModel {
    /// How many log lines PgUp/PgDn scroll.
    static let logPage = 5

    /// Applies a key press: each ``Mode`` reads the key in its own table. Returns the commands
    /// it asks for (cancel, undo, theme, exit); every other effect is a change of the model.
    public mutating func handle(_ key: Key) -> [Command] {
        switch mode {
        case .help:
            // Any key closes the help, and does nothing else: the user was reading, not acting.
            mode = .normal
            return []
        case .filter:
            editFilter(key)
            return []
        case .confirmUndo(let id):
            return answerUndo(id, key)
        case .confirmCancelJob(let id):
            return answerCancelJob(id, key)
        case .normal:
            notice = nil
            return KeyMap.action(for: key, quitting: false).map { perform($0) } ?? []
        case .quitting:
            // A key's notice (the theme's name) shows until the next key, then the quit's
            // progress again: it says how to quit at once.
            notice = nil
            return KeyMap.action(for: key, quitting: true).map { perform($0) } ?? []
        }
    }

    /// Carries out one action of ``KeyMap``.
    private mutating func perform(_ action: KeyAction) -> [Command] {
        switch action {
        case .up where tab == .store, .down where tab == .store, .first where tab == .store, .last where tab == .store:
            moveJobSelection(action)
        case .up where tab == .queues, .down where tab == .queues, .first where tab == .queues, .last where tab == .queues:
            moveQueueSelection(action)
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .first: select(visibleFlows.first)
        case .last: select(visibleFlows.last)
        case .switchTab: switchTab()
        case .retryJob where tab == .queues: return retrySelectedQueuedJob()
        case .retryJob: return retrySelectedJob()
        case .pauseQueue: return pauseSelectedQueue()
        case .wakeParked: return wakeParkedJobs()
        case .switchCondition: return switchStoreCondition()
        case .cancel where tab == .store: return cancelSelectedJob()
        case .cancel where tab == .queues: return cancelSelectedQueuedJob()
        case .logBack: scrollLog(by: Self.logPage)
        case .logForward: scrollLog(by: -Self.logPage)
        case .switchFocus: focus = focus == .flows ? .detail : .flows
        case .clearFilter: clearFilter()
        case .cancel: return cancelSelected()
        case .cancelAll: return cancelAll(reason: "cancelling every running and waiting flow")
        case .undo: askUndo()
        case .pause: togglePause(); notice = paused ? "view paused: the engine keeps running (p resumes)" : nil
        case .filter: mode = .filter
        case .theme: return [.cycleTheme]
        case .help: mode = .help
        case .quit: return quit()
        }
        return []
    }

    // MARK: - Selection and scrolling

    private mutating func move(by offset: Int) {
        switch focus {
        case .detail:
            // Clamped to what the pane can show, so a press past the end is not stored and the
            // next press the other way moves at once.
            let last = maxDetailScroll
            detailScroll = min(max(min(detailScroll, last) + offset, 0), last)
        case .flows:
            let visible = visibleFlows
            guard !visible.isEmpty else { return }
            let current = visible.firstIndex { $0.info.id == selection } ?? 0
            select(visible[min(max(current + offset, 0), visible.count - 1)])
        }
    }

    /// Scrolls the log `lines` back (negative: forward), within what the pane can show. Back
    /// at the newest line, the log follows new lines again.
    private mutating func scrollLog(by lines: Int) {
        let log = board.log
        let scroll = min(max(logScroll + lines, 0), log.maxScroll(count: panes.logRows))
        logAnchor = scroll == 0 ? nil : log.endNumber - scroll
    }

    private mutating func select(_ row: FlowRow?) {
        guard let row, row.info.id != selection else { return }
        selection = row.info.id
        detailScroll = 0
    }

    // MARK: - Filter

    private mutating func editFilter(_ key: Key) {
        switch key {
        case .character(let character): filter.append(character)
        case .backspace: if !filter.isEmpty { filter.removeLast() }
        case .enter: mode = .normal
        case .escape: clearFilter()
        default: return
        }
        keepSelectionVisible()
    }

    /// Clears the filter; typing one ends.
    private mutating func clearFilter() {
        if mode == .filter { mode = .normal }
        filter = ""
        keepSelectionVisible()
    }

    // MARK: - Cancel, undo, quit

    private mutating func cancelSelected() -> [Command] {
        guard let id = selection, let row = live.flow(id) else { return [] }
        guard row.phase.acceptsCancel else {
            notice = "\(id) is \(row.phase.name): nothing to cancel"
            return []
        }
        notice = "cancelling \(id) \"\(row.info.title)\": rolling back"
        return [.cancel(id)]
    }

    /// Cancels every flow a cancel still affects.
    private mutating func cancelAll(reason: String) -> [Command] {
        let ids = live.flows.filter(\.phase.acceptsCancel).map(\.info.id)
        notice = ids.isEmpty ? "no running or waiting flow to cancel" : "\(reason) (\(ids.count))"
        return ids.map(Command.cancel)
    }

    private mutating func askUndo() {
        guard let id = selection, let row = live.flow(id) else { return }
        switch (row.info.access, row.phase) {
        case (.write, .completed) where row.undoExpired:
            notice = "\(id) left the undo history: it can no longer be undone"
        case (.write, .completed): mode = .confirmUndo(id)
        case (.read, _): notice = "\(id) is a read flow: it changed nothing, so there is nothing to undo"
        default: notice = "\(id) is \(row.phase.name): only completed write flows can be undone"
        }
    }

    private mutating func answerUndo(_ id: FlowID, _ key: Key) -> [Command] {
        guard let yes = Self.answer(key) else { return [] }
        mode = .normal
        notice = yes ? "undoing \(id)" : "undo of \(id) abandoned"
        return yes ? [.undo(id)] : []
    }

    /// A y/n question's answer: true for `y`, false for `n` or Esc, nil for any other key (the
    /// question stays).
    static func answer(_ key: Key) -> Bool? {
        switch key {
        case .character("y"), .character("Y"): true
        case .character("n"), .character("N"), .escape: false
        default: nil
        }
    }

    /// First `q`: roll back what runs, then exit; the status bar says how far it is
    /// (``quitNotice``). Second `q` (or nothing active): exit now.
    private mutating func quit() -> [Command] {
        guard mode != .quitting, live.hasActiveFlows else {
            let active = live.flows.filter(\.phase.isActive)
            return [.exit(leftover: active.map { "\($0.info.id) \"\($0.info.title)\" was \($0.phase.name)" })]
        }
        mode = .quitting
        endedWhileQuitting = 0
        // A paused view would hide the rollback the user is waiting for.
        if paused { togglePause() }
        let cancels = cancelAll(reason: "quitting")
        notice = nil
        return cancels
    }
}
