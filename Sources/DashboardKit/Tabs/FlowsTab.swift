import TaskFlow

/// The flows view: the flow list, the selected flow's step tree, the lock beside it. Its keys
/// select, sort and filter flows, move the arrows between the list and the step tree, and
/// cancel and undo flows — one, or every flow the filter matches.
package struct FlowsTab: ListView {
    /// Which pane the arrow keys move in.
    package enum Focus: Sendable, Hashable {
        /// ↑/↓ select a flow.
        case flows
        /// ↑/↓ scroll the selected flow's step tree.
        case detail
    }

    /// What its keys do.
    package enum Action: Sendable, Hashable {
        case up, down, first, last, switchFocus, cancel, cancelAll, undo, filter, clearFilter
        case sort(ListQuery.SortKey)
    }

    /// The selected flow.
    package private(set) var selection: FlowID?
    /// Where ↑/↓ move.
    package private(set) var focus = Focus.flows
    /// How far the step tree is scrolled down.
    package private(set) var detailScroll = 0
    /// The filter and the sort (see ``ListFilter``, ``schema(now:)``).
    package var query = ListQuery()

    /// No flow selected, no filter.
    package init() {}

    package var name: String { "flows" }

    /// How its preferences name it.
    package static let preferenceKey = "flows"
    package static let filterAction = Action.filter
    package static let clearFilterAction = Action.clearFilter
    package static func sortAction(_ key: ListQuery.SortKey) -> Action { .sort(key) }
    package static let rowNoun = "flows"

    /// What the flow list sorts and filters by: its columns (the lock's phases in lifecycle
    /// order for `status`), and the fields `state`, `access`, `title`, `step`, `error`.
    package static func schema(now: Duration) -> ListSchema<FlowRow> {
        ListSchema(
            columns: [
                ListColumn("id") { $0.info.id.rawValue },
                ListColumn("access") { $0.info.access.rawValue },
                ListColumn("title") { $0.info.title.lowercased() },
                ListColumn("status") { FlowPhase.allCases.firstIndex(of: $0.phase) ?? 0 },
                ListColumn("progress") { $0.phase == .completed ? 1 : $0.current?.progress ?? -1 },
                ListColumn("step") { $0.current?.info.title.lowercased() ?? "" },
                ListColumn("elapsed") { $0.elapsed(at: now) },
            ],
            fields: [
                ("state", { $0.phase.name }), ("access", { $0.info.access.rawValue }), ("title", { $0.info.title }),
                ("step", { $0.current?.info.title ?? "" }), ("error", { $0.failureMessage ?? "" }),
            ],
            text: { $0.info.title })
    }

    package var keys: [KeyRow<Action>] { Self.keyRows }

    private static let keyRows: [KeyRow<Action>] = [
        KeyRow(
            keys: "↑ / k, ↓ / j", action: "select a flow; scroll steps in detail", hint: KeyHint("↑↓", "select"),
            bindings: [.up: .up, .character("k"): .up, .down: .down, .character("j"): .down]),
        KeyRow(keys: "Home / End", action: "select the first / the last flow", bindings: [.home: .first, .end: .last]),
        KeyRow(keys: "Enter", action: "focus the flow list / the detail pane", hint: KeyHint("Enter", "detail"), bindings: [.enter: .switchFocus]),
        KeyRow(keys: "c", action: "cancel the flow: its steps roll back", hint: KeyHint("c", "cancel"), bindings: [.character("c"): .cancel]),
        KeyRow(
            keys: "C", action: "cancel every active flow listed", hint: KeyHint("C", "cancel all"),
            bindings: [.character("C"): .cancelAll]),
        KeyRow(keys: "u, then y / n", action: "undo a completed write flow", hint: KeyHint("u", "undo"), bindings: [.character("u"): .undo]),
        filterAndSortKeys,
    ]

    /// Moving around still acts while quitting; cancelling is moot then (every flow is being
    /// cancelled), and undo and filter typing would hide the rollback the user waits for.
    package func actsWhileQuitting(_ action: Action) -> Bool {
        switch action {
        case .up, .down, .first, .last, .switchFocus, .clearFilter, .sort: true
        case .cancel, .cancelAll, .undo, .filter: false
        }
    }

    /// Undo only for a completed write flow still in the engine's undo history.
    package func offers(_ action: Action, _ shared: SharedState) -> Bool {
        action != .undo || selectedFlow(shared)?.canUndo == true
    }

    /// Elapsed times move while flows are active.
    package func isAnimated(_ shared: SharedState) -> Bool { shared.board.hasActiveFlows }

    package func panes(of model: DashboardModel, glyphs: Glyphs) -> TabPanes {
        TabPanes(
            list: FlowListWidget(model: model, tab: self, glyphs: glyphs), detail: DetailWidget(model: model, tab: self, glyphs: glyphs),
            side: LockPanelWidget(board: model.board, glyphs: glyphs))
    }

    package mutating func perform(_ action: Action, _ shared: inout SharedState) -> [Command] {
        switch action {
        case .up: move(by: -1, shared)
        case .down: move(by: 1, shared)
        case .first: select(visibleFlows(shared).first)
        case .last: select(visibleFlows(shared).last)
        case .switchFocus: focus = focus == .flows ? .detail : .flows
        case .clearFilter: clearFilter(&shared)
        case .cancel: return cancelSelected(&shared)
        case .cancelAll: return cancelEveryMatch(&shared)
        case .undo: askUndo(&shared)
        case .filter: shared.mode = .filter
        case .sort(let key): return sortList(key, &shared)
        }
        return []
    }

    // MARK: - Reading

    /// The flows that pass the filter, in the sort's order (submission order unsorted).
    package func visibleFlows(_ shared: SharedState) -> ListedRows<FlowRow> {
        query.apply(shared.board.flows, Self.schema(now: shared.now))
    }

    /// The selected flow as shown.
    package func selectedFlow(_ shared: SharedState) -> FlowRow? {
        selection.flatMap(shared.board.flow)
    }

    /// The largest useful ``detailScroll`` for the selected flow's step tree.
    package func maxDetailScroll(_ shared: SharedState) -> Int {
        guard let flow = selectedFlow(shared) else { return 0 }
        let rows = shared.panes.detailRows - (flow.failureMessage == nil ? 0 : 1)
        return max(flow.steps.count - max(rows, 1), 0)
    }

    // MARK: - Selection and scrolling

    /// A flow was listed: the first one is selected.
    mutating func listed(_ id: FlowID) {
        if selection == nil { selection = id }
    }

    private mutating func move(by offset: Int, _ shared: SharedState) {
        switch focus {
        case .detail:
            // Clamped to what the pane can show, so a press past the end is not stored and the
            // next press the other way moves at once.
            let last = maxDetailScroll(shared)
            detailScroll = min(max(min(detailScroll, last) + offset, 0), last)
        case .flows:
            let visible = visibleFlows(shared)
            guard !visible.isEmpty else { return }
            let current = visible.firstIndex { $0.info.id == selection } ?? 0
            select(visible[min(max(current + offset, 0), visible.count - 1)])
        }
    }

    /// Selects flow `id` (from the event log), clearing a filter that hides it, and gives the
    /// arrows to the flow list.
    package mutating func select(_ id: FlowID, _ shared: SharedState) {
        if !visibleFlows(shared).contains(where: { $0.info.id == id }) { query.clearFilter() }
        focus = .flows
        select(shared.board.flow(id))
    }

    private mutating func select(_ row: FlowRow?) {
        guard let row, row.info.id != selection else { return }
        selection = row.info.id
        detailScroll = 0
    }

    /// Keeps the selection on a visible flow after the filter changed.
    package mutating func keepSelectionVisible(_ shared: SharedState) {
        let visible = visibleFlows(shared)
        if let selection, visible.contains(where: { $0.info.id == selection }) { return }
        selection = visible.first?.info.id
        detailScroll = 0
    }

    // MARK: - Mouse

    /// A click on the list: the flow at `index` as listed is selected (its step tree shown from
    /// the top); past the end, nothing changes.
    package mutating func selectRow(at index: Int, _ shared: SharedState) {
        let visible = visibleFlows(shared)
        guard visible.indices.contains(index) else { return }
        select(visible[index])
    }

    /// A click on the list or the detail pane: ↑/↓ move there (as Enter switches).
    package mutating func focusPane(_ pane: DashboardPane) {
        switch pane {
        case .list: focus = .flows
        case .detail: focus = .detail
        case .side, .log: break
        }
    }

    /// The wheel: over the list the selection moves, over the detail pane the step tree scrolls,
    /// whichever pane has the arrows.
    package mutating func scroll(_ pane: DashboardPane, by lines: Int, _ shared: SharedState) {
        let kept = focus
        focus = pane == .detail ? .detail : .flows
        move(by: lines, shared)
        focus = kept
    }

    // MARK: - Cancel and undo

    /// `C`: without a filter every running and waiting flow, at once (as `q` would); with a
    /// filter, every match that can still be cancelled, after a question that says how many.
    private func cancelEveryMatch(_ shared: inout SharedState) -> [Command] {
        guard query.isFiltering else { return shared.cancelAll(reason: "cancelling every running and waiting flow") }
        let live = shared.live
        let matches = visibleFlows(shared).filter { live.flow($0.info.id)?.phase.acceptsCancel == true }
        guard !matches.isEmpty else {
            shared.notice = "no flow\(matchingText) can be cancelled"
            return []
        }
        let count = Self.count(matches.count)
        shared.mode = .confirm(Question(
            prompt: "Cancel \(count)\(matchingText)? Each rolls back.  y = cancel   n = keep",
            yes: matches.map { .cancel($0.info.id) }, yesNotice: "cancelling \(count): rolling back",
            noNotice: "nothing cancelled", yesLog: "cancel \(count)\(matchingText)"))
        return []
    }

    private func cancelSelected(_ shared: inout SharedState) -> [Command] {
        guard let id = selection, let row = shared.live.flow(id) else { return [] }
        guard row.phase.acceptsCancel else {
            shared.notice = "\(id) is \(row.phase.name): nothing to cancel"
            return []
        }
        shared.notice = "cancelling \(id) \"\(row.info.title)\": rolling back"
        return [.cancel(id)]
    }

    private func askUndo(_ shared: inout SharedState) {
        guard let id = selection, let row = shared.live.flow(id) else { return }
        switch (row.info.access, row.phase) {
        case (.write, .completed) where row.undoExpired:
            shared.notice = "\(id) left the undo history: it can no longer be undone"
        case (.write, .completed):
            shared.mode = .confirm(Question(
                prompt: "Undo \(id) \"\(row.info.title)\"? Its steps are reverted last-first.  y = undo   n = keep",
                yes: [.undo(id)], yesNotice: "undoing \(id)", noNotice: "undo of \(id) abandoned"))
        case (.read, _): shared.notice = "\(id) is a read flow: it changed nothing, so there is nothing to undo"
        default: shared.notice = "\(id) is \(row.phase.name): only completed write flows can be undone"
        }
    }
}
