/// A pane of the dashboard's body, as the model names it: where a click gives the focus and
/// where the wheel scrolls. Only a name: where each pane is drawn is the view's business.
package enum DashboardPane: Sendable, Hashable {
    /// The shown view's list (flows, queues, jobs).
    case list
    /// The selection in full (a flow's step tree).
    case detail
    /// Beside the detail (the lock, the store's worker processes).
    case side
    /// The event log.
    case log
}

/// What a mouse event asks of the model, once the session looked up what the last frame drew
/// where (see ``DashboardModel/point(_:)``): the messages a click or a wheel turn becomes.
package enum PointerAction: Sendable, Hashable {
    /// Select the row at this index of the shown view's list as shown (filtered and sorted).
    case selectRow(Int)
    /// Give the arrows to this pane.
    case focus(DashboardPane)
    /// Scroll this pane by this many lines; negative moves back (up), positive forward (down).
    case scroll(DashboardPane, lines: Int)
    /// Show the view at this index of ``DashboardModel/tabs``.
    case showView(Int)
    /// Sort the shown view's list by this column of its schema; the sorted column inverts.
    case sort(column: Int)
    /// Act as this key would (a status bar hint).
    case key(Key)
}

extension DashboardModel {
    /// How many lines one turn of the wheel scrolls (the list, the log, the detail pane).
    package static let wheelLines = 3

    /// Applies what a mouse event asked for. In the normal mode (and while quitting) each action
    /// does what its documentation says; a click while the help is open closes it, as any key
    /// does; while a filter is typed or a question waits, the mouse does nothing, so that a
    /// stray click neither answers nor edits. Returns the commands it asks for (a hint's key, a
    /// sort to remember).
    package mutating func point(_ action: PointerAction) -> [Command] {
        switch shared.mode {
        case .help:
            if case .scroll = action { return [] }
            shared.mode = .normal
            return []
        case .filter, .confirm:
            return []
        case .normal, .quitting:
            break
        }
        switch action {
        case .key(let key):
            return handle(key)
        case .selectRow(let index):
            selectRow(at: index)
        case .focus(let pane):
            focus(pane)
        case .scroll(let pane, let lines):
            scroll(pane, by: lines)
        case .showView(let index):
            showView(at: index)
        case .sort(let column):
            return sort(byColumn: column)
        }
        return []
    }

    /// Selects the row at `index` of the shown view's list as shown, and gives the arrows to the
    /// list; an index past the end selects nothing new.
    package mutating func selectRow(at index: Int) {
        tabs[shownIndex].focusPane(.list)
        tabs[shownIndex].selectRow(at: index, shared)
    }

    /// Gives the arrows to `pane`: the list or the detail of the shown view, or the event log
    /// (which then has the keys, as `L` gives them). A click elsewhere gives the keys back to
    /// the view.
    package mutating func focus(_ pane: DashboardPane) {
        let logHasKeys = shared.logFocus != nil
        if (pane == .log) != logHasKeys { shared.toggleLogFocus() }
        if pane != .log { tabs[shownIndex].focusPane(pane) }
    }

    /// Scrolls `pane` by `lines` (negative: back, up): the list moves its selection, the detail
    /// its content, the log its lines (as PgUp/PgDn, by fewer lines). The side pane does not
    /// scroll.
    package mutating func scroll(_ pane: DashboardPane, by lines: Int) {
        switch pane {
        case .log: shared.scrollLog(by: -lines)
        case .list, .detail: tabs[shownIndex].scroll(pane, by: lines, shared)
        case .side: break
        }
    }

    /// Shows the view at `index` of ``tabs``; an index out of range changes nothing.
    package mutating func showView(at index: Int) {
        guard tabs.indices.contains(index) else { return }
        shownIndex = index
    }

    /// Sorts the shown view's list by column `column` of its schema, smallest first; when the
    /// list is sorted by that column already, the other way round (a second click inverts).
    /// Returns the command that remembers the sort, as `<`, `>` and `i` do.
    package mutating func sort(byColumn column: Int) -> [Command] {
        tabs[shownIndex].sort(byColumn: column, &shared)
    }
}
