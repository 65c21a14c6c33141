import Foundation
import TaskFlow

/// The stored jobs view: a durable job store's jobs as last listed, the selected job in full,
/// and the processes running workers on the store beside them (store jobs do not take the
/// lock). Its keys sort and filter the jobs, remove and retry them — one, or every job the
/// filter matches — wake them, and flip the source's own switches (``StoreSwitch``: the outbox
/// demo's network).
package struct StoreTab: ListView {
    /// What its keys do.
    package enum Action: Sendable, Hashable {
        case up, down, first, last, cancel, retry, wake, filter, clearFilter, cancelMatches, retryMatches
        case sort(ListQuery.SortKey)
        /// Flip the source's switch of this key.
        case flip(Character)
    }

    /// The store as last listed.
    package private(set) var board: StoreBoard
    /// The selected job's id.
    package private(set) var selection: StoredJobRow.ID?
    /// The filter and the sort (see ``schema(now:)``).
    package var query = ListQuery()

    /// How its preferences name it.
    package static let preferenceKey = "stored-jobs"
    package static let filterAction = Action.filter
    package static let clearFilterAction = Action.clearFilter
    package static func sortAction(_ key: ListQuery.SortKey) -> Action { .sort(key) }
    package static let rowNoun = "jobs"

    /// What the job list sorts and filters by: its columns, and the fields `state`, `kind`,
    /// `error`; plain words search the kind and the (redacted) payload.
    package static func schema(now: Duration) -> ListSchema<StoredJobRow> { jobSchema }

    private static let jobSchema = ListSchema<StoredJobRow>(
        columns: [
            ListColumn("id") { $0.id.rawValue },
            ListColumn("kind") { $0.kind.lowercased() },
            ListColumn("state") { StoredJobRow.State.allCases.firstIndex(of: $0.state) ?? 0 },
            ListColumn("retries") { $0.retries },
            ListColumn("note") { $0.lastError ?? $0.damage ?? "" },
        ],
        fields: [("state", { $0.state.rawValue }), ("kind", { $0.kind }), ("error", { $0.lastError ?? $0.damage ?? "" })],
        text: { "\($0.kind) \($0.payload)" })

    /// The view of the store named `name`, not listed yet.
    package init(name: String) {
        board = StoreBoard(name: name)
    }

    package var name: String { "stored jobs" }

    /// Its detail pane says less than a flow's step tree: the list takes half the body.
    package var listShare: Int { 50 }

    /// Its own keys, then one for each of the source's switches.
    package var keys: [KeyRow<Action>] { Self.keyRows + switchRows }

    private static let keyRows: [KeyRow<Action>] = [
        KeyRow(
            keys: "↑ / k, ↓ / j", action: "select a job", hint: KeyHint("↑↓", "select"),
            bindings: [.up: .up, .character("k"): .up, .down: .down, .character("j"): .down]),
        KeyRow(keys: "Home / End", action: "select the first / the last job", bindings: [.home: .first, .end: .last]),
        KeyRow(keys: "c, then y / n", action: "remove the job from the store", hint: KeyHint("c", "remove"), bindings: [.character("c"): .cancel]),
        KeyRow(keys: "r", action: "queue the failed job again now", hint: KeyHint("r", "retry"), bindings: [.character("r"): .retry]),
        KeyRow(keys: "w", action: "wake the parked jobs", hint: KeyHint("w", "wake"), bindings: [.character("w"): .wake]),
        KeyRow(
            keys: "C, R", action: "remove / retry every job listed", hint: KeyHint("C R", "all"),
            bindings: [.character("C"): .cancelMatches, .character("R"): .retryMatches]),
        filterAndSortKeys,
    ]

    /// A row for each switch whose key no other key of the view, nor of every view, takes.
    private var switchRows: [KeyRow<Action>] {
        let taken = Set(Self.keyRows.flatMap(\.bindings.keys) + KeyMap.rows.flatMap(\.bindings.keys))
        return board.switches.filter { !taken.contains(.character($0.key)) }.map { toggle in
            KeyRow(
                keys: String(toggle.key), action: "switch the \(toggle.name): \(toggle.onLabel) / \(toggle.offLabel)",
                hint: KeyHint(String(toggle.key), toggle.name), bindings: [.character(toggle.key): .flip(toggle.key)])
        }
    }

    package func actsWhileQuitting(_ action: Action) -> Bool {
        switch action {
        case .up, .down, .first, .last, .clearFilter, .sort: true
        default: false
        }
    }

    /// The jobs as listed, filtered and sorted.
    package var visibleRows: ListedRows<StoredJobRow> { query.apply(board.rows, Self.jobSchema) }

    /// Retry only for a failed job.
    package func offers(_ action: Action, _ shared: SharedState) -> Bool {
        action != .retry || selectedJob?.canRetry == true
    }

    package func panes(of model: DashboardModel, glyphs: Glyphs) -> TabPanes {
        TabPanes(
            list: JobListWidget(model: model, tab: self, glyphs: glyphs), detail: JobDetailWidget(model: model, tab: self, glyphs: glyphs),
            side: WorkerProcessesWidget(model: model, store: board, glyphs: glyphs))
    }

    package mutating func perform(_ action: Action, _ shared: inout SharedState) -> [Command] {
        switch action {
        case .up, .down, .first, .last: move(action)
        case .filter: shared.mode = .filter
        case .clearFilter: clearFilter(&shared)
        case .sort(let key): return sortList(key, &shared)
        case .cancelMatches: askForEveryMatch(removing: true, &shared)
        case .retryMatches: askForEveryMatch(removing: false, &shared)
        case .cancel: askCancel(&shared)
        case .retry: return retrySelectedJob(&shared.notice)
        case .wake:
            shared.notice = "conditions changed: parked jobs run again"
            return [.wakeParkedJobs]
        case .flip(let key):
            guard let flipped = board.flip(key) else { return [] }
            shared.notice = flipped.state
            return [.flipStoreSwitch(key)]
        }
        return []
    }

    /// The selected job as last listed.
    package var selectedJob: StoredJobRow? { selection.flatMap(board.row) }

    // MARK: - Listings

    /// Takes a listing made at `date`, which is `time` on the model's clock; the selection stays
    /// on its job while the list shows it, else moves to the next job still shown, else the one
    /// before: never to one the filter hides, which the keys would then act on unseen.
    mutating func update(_ listing: StoreListing, switches: [StoreSwitch], listedAt date: Date, time: Duration) {
        let before = visibleRows.map(\.id)
        board.update(listing, switches: switches, listedAt: date, time: time)
        let shown = visibleRows
        let ids = Set(shown.map(\.id))
        if let selection, ids.contains(selection) { return }
        // The selected job left the list (it succeeded, another process removed it, or the
        // filter no longer matches it): the cursor stays where it was, not at the top.
        let place = before.firstIndex { $0 == selection } ?? 0
        let next = before[place...].first(where: ids.contains)
        let previous = before[..<place].last(where: ids.contains)
        selection = next ?? previous ?? shown.first?.id
    }

    /// Keeps the last listing and says why the store could not be listed.
    mutating func fail(_ message: String) {
        board.fail(message)
    }

    /// Takes in a run of a stored job that ended.
    mutating func record(_ run: StoredJobRun) {
        board.record(run)
    }

    // MARK: - Keys

    /// ↑/↓/Home/End.
    private mutating func move(_ action: Action) {
        switch action {
        case .up: move { current, _ in current - 1 }
        case .down: move { current, _ in current + 1 }
        case .first: move { _, _ in 0 }
        default: move { _, last in last }
        }
    }

    /// Moves the selection to the index `target` gives (from the current index and the last
    /// one) in the list as shown, kept within it.
    private mutating func move(_ target: (_ current: Int, _ last: Int) -> Int) {
        let rows = visibleRows
        guard !rows.isEmpty else { return }
        let current = rows.firstIndex { $0.id == selection } ?? 0
        selection = rows[min(max(target(current, rows.count - 1), 0), rows.count - 1)].id
    }

    /// A click on the list: the job at `index` as listed is selected; past the end, nothing
    /// changes.
    package mutating func selectRow(at index: Int, _ shared: SharedState) {
        let rows = visibleRows
        guard rows.indices.contains(index) else { return }
        selection = rows[index].id
    }

    /// The wheel over the list: the selection moves `lines` jobs, stopping at either end. The
    /// detail pane does not scroll.
    package mutating func scroll(_ pane: DashboardPane, by lines: Int, _ shared: SharedState) {
        guard pane == .list else { return }
        move { current, _ in current + lines }
    }

    /// Keeps the selection on a listed job after the filter changed.
    package mutating func keepSelectionVisible(_ shared: SharedState) {
        let rows = visibleRows
        if let selection, rows.contains(where: { $0.id == selection }) { return }
        selection = rows.first?.id
    }

    // MARK: - Keys

    /// `C` and `R`: every job listed (the filter's matches, when one is typed) that can be
    /// removed (not running) or retried (failed), after a question that says how many.
    private func askForEveryMatch(removing: Bool, _ shared: inout SharedState) {
        let matching = matchingText
        let jobs = visibleRows.filter { removing ? $0.canCancel : $0.canRetry }
        guard !jobs.isEmpty else {
            shared.notice = removing ? "no job\(matching) can be removed (a running job cannot)" : "no failed job\(matching) to retry"
            return
        }
        let count = Self.count(jobs.count)
        let verb = removing ? "Remove" : "Retry"
        let what = removing ? "They leave the store for good." : "They are queued again now."
        shared.mode = .confirm(Question(
            prompt: "\(verb) \(count)\(matching)? \(what)  y = \(verb.lowercased())   n = keep",
            yes: jobs.map { removing ? .cancelStoredJob($0.id) : .retryStoredJob($0.id) },
            yesNotice: removing ? "removing \(count)" : "queueing \(count) again", noNotice: "no job changed",
            yesLog: "\(verb.lowercased()) \(count)\(matching)"))
    }

    /// `r`: a failed job queued again.
    private func retrySelectedJob(_ notice: inout String?) -> [Command] {
        guard let job = selectedJob else {
            notice = "r retries a failed job: select one"
            return []
        }
        guard job.canRetry else {
            notice = "job \(job.id) is \(job.state.rawValue): only a failed job can be retried"
            return []
        }
        notice = "job \(job.id) queued again"
        return [.retryStoredJob(job.id)]
    }

    /// `c`: asks whether to remove the selected job (it is gone for good, and the list moves
    /// under the cursor as jobs finish), unless a worker runs it.
    private func askCancel(_ shared: inout SharedState) {
        guard let job = selectedJob else { return }
        guard job.canCancel else {
            shared.notice = "job \(job.id) is running: it can be cancelled when its run ends"
            return
        }
        shared.mode = .confirm(Question(
            prompt: "Cancel job \(job.id) (\(job.kind))? It is removed from the store.  y = remove   n = keep",
            yes: [.cancelStoredJob(job.id)], yesNotice: "job \(job.id) cancelled", noNotice: "job \(job.id) kept"))
    }
}

extension DashboardModel {
    /// Takes a listing of the store's jobs made at `date`, which is `time` on the model's clock,
    /// with the source's switches as they stood.
    package mutating func updateStore(_ listing: StoreListing, switches: [StoreSwitch] = [], listedAt date: Date, time: Duration) {
        advance(to: time)
        update(StoreTab.self) { $0.update(listing, switches: switches, listedAt: date, time: time) }
    }

    /// Takes in a run of a stored job that ended, for its kind's statistics.
    package mutating func storeRan(_ run: StoredJobRun) {
        update(StoreTab.self) { $0.record(run) }
    }

    /// Keeps the last listing and says why the store could not be listed.
    package mutating func storeFailed(_ message: String, at time: Duration) {
        advance(to: time)
        update(StoreTab.self) { $0.fail(message) }
    }
}
