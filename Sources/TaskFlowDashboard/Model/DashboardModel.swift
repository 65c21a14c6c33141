import Foundation
import TaskFlow

/// The whole state of the dashboard as a value: what the engine reported (``FlowBoard``) and
/// what the user did (selection, focus, filter, ``Mode``). Changed only by ``apply(_:at:)`` for
/// engine events and ``handle(_:)`` for keys, both pure, so every screen can be reproduced in a
/// test from a list of events and keys.
public struct DashboardModel: Sendable {
    /// The scenario's name, shown in the header.
    public internal(set) var scenario: String
    /// The board that keeps following the engine, paused or not.
    public private(set) var live: FlowBoard
    /// The board frozen by `p`, shown instead of ``live`` while paused.
    public private(set) var frozen: FlowBoard?
    /// The selected flow.
    public internal(set) var selection: FlowID?
    /// The job store shown in the jobs view, once one is attached (``attachStore(named:)``).
    public internal(set) var store: StoreBoard?
    /// The in-process job queues shown in the queues view, once attached (``attachQueues(_:showing:)``).
    public internal(set) var queueBoard: QueueBoard?
    /// The line under the cursor in the queues view.
    public internal(set) var queueSelection: QueueLine?
    /// Which list the main pane shows.
    public internal(set) var tab = Tab.flows
    /// The selected job in the jobs view.
    public internal(set) var jobSelection: Int64?
    /// Where ↑/↓ move.
    public internal(set) var focus = Focus.flows
    /// How far the step tree is scrolled down.
    public internal(set) var detailScroll = 0
    /// The number (``EventLog/endNumber`` style) one past the last log line in view while the
    /// log is scrolled back; nil follows the newest line. A line number rather than an offset
    /// keeps the view still while new lines arrive.
    public internal(set) var logAnchor: Int?
    /// Rows of the panes the keys scroll, as last told (see ``resize(_:)``).
    public private(set) var panes = PaneRows.none
    /// The title filter (case-insensitive substring); empty shows every flow.
    public internal(set) var filter = ""
    /// What the keys do now: normal, help, filter, confirm, quitting.
    public internal(set) var mode = Mode.normal
    /// A one-line message for the status bar (the outcome of the last key).
    public internal(set) var notice: String?
    /// Flows that ended since the first `q`: beside those still active, how far the quit is.
    public internal(set) var endedWhileQuitting = 0
    /// The active theme's name, shown in the header.
    public var themeName: String
    /// The latest time the model heard of, since the dashboard started; drives elapsed times.
    public private(set) var now: Duration = .zero

    /// An empty dashboard for `scenario` that keeps the last `historyLimit` finished flows.
    public init(
        scenario: String, themeName: String = "default", logCapacity: Int = 1000,
        historyLimit: Int = FlowBoard.defaultHistoryLimit
    ) {
        self.scenario = scenario
        self.themeName = themeName
        live = FlowBoard(logCapacity: logCapacity, historyLimit: historyLimit)
    }

    /// What the screen shows: the frozen board while paused, else the live one.
    public var board: FlowBoard { frozen ?? live }

    /// True while `p` froze the view.
    public var paused: Bool { frozen != nil }

    /// The flows that pass the filter, in submission order.
    public var visibleFlows: [FlowRow] {
        guard !filter.isEmpty else { return board.flows }
        let needle = filter.lowercased()
        return board.flows.filter { $0.info.title.lowercased().contains(needle) }
    }

    /// How many lines the log is scrolled back from the newest (0 while following it).
    public var logScroll: Int {
        let log = board.log
        let scroll = logAnchor.map(log.scroll(endingBefore:)) ?? 0
        return min(scroll, log.maxScroll(count: panes.logRows))
    }

    /// The largest useful ``detailScroll`` for the selected flow's step tree.
    public var maxDetailScroll: Int {
        guard let flow = selectedFlow else { return 0 }
        let rows = panes.detailRows - (flow.failureMessage == nil ? 0 : 1)
        return max(flow.steps.count - max(rows, 1), 0)
    }

    /// Takes the pane sizes of a resized screen, so that scrolling keys stop where the panes'
    /// content ends. The session sends it whenever the backend's size changes.
    public mutating func resize(_ panes: PaneRows) {
        self.panes = panes
    }

    /// The selected flow as shown.
    public var selectedFlow: FlowRow? { selection.flatMap(board.flow) }

    /// The selected job as last listed.
    public var selectedJob: StoredJobRow? { jobSelection.flatMap { store?.row($0) } }

    /// Shows a job store in the jobs view (`Tab`), not listed yet; `showing` it opens the
    /// dashboard on the jobs view.
    public mutating func attachStore(named name: String, showing: Bool = false) {
        store = StoreBoard(name: name)
        if showing { tab = .store }
    }

    /// Takes a listing of the store's jobs made at `date`, which is `time` on the model's clock;
    /// the selection stays on its job while it is listed, else moves to the first.
    public mutating func updateStore(
        _ listing: StoreListing, condition: StoreCondition? = nil, listedAt date: Date, time: Duration
    ) {
        advance(to: time)
        let before = store?.rows ?? []
        store?.update(listing, condition: condition, listedAt: date, time: time)
        guard jobSelection.flatMap({ store?.row($0) }) == nil else { return }
        // The selected job left (it succeeded, or another process removed it): the cursor stays
        // where it was — on the next job still listed, else the one before — not at the top.
        let place = before.firstIndex { $0.id == jobSelection } ?? 0
        let listed = Set(listing.rows.map(\.id))
        let next = before[min(place, before.count)...].first { listed.contains($0.id) }
        let previous = before[..<min(place, before.count)].last { listed.contains($0.id) }
        jobSelection = (next ?? previous)?.id ?? listing.rows.first?.id
    }

    /// Keeps the last listing and says why the store could not be listed.
    public mutating func storeFailed(_ message: String, at time: Duration) {
        advance(to: time)
        store?.fail(message)
    }

    /// Whether `action` can do something for the selected flow: undo only for a completed
    /// write flow still in the engine's undo history. The status bar greys out the others.
    public func offers(_ action: KeyAction) -> Bool {
        switch action {
        case .undo: tab == .flows && selectedFlow?.canUndo == true
        case .switchTab: store != nil || queueBoard != nil
        case .wakeParked: store != nil
        case .switchCondition: store?.condition != nil
        case .retryJob: tab == .store ? selectedJob?.canRetry == true : tab == .queues && selectedQueuedJob?.canRetry == true
        case .pauseQueue: tab == .queues
        default: true
        }
    }

    /// True after the first `q`: active flows are rolling back before the program exits.
    public var quitting: Bool { mode == .quitting }

    /// True once a quit was asked for and no flow is active any more.
    public var readyToExit: Bool { quitting && !live.hasActiveFlows }

    /// While quitting, the status bar's line: the flows still rolling back, counted as the header
    /// counts them, of every flow the quit waits for (those active at the first `q` and those
    /// submitted since), updated as they end.
    public var quitNotice: String? {
        guard quitting else { return nil }
        let active = live.activeFlows
        return "quitting: rolling back \(active) of \(active + endedWhileQuitting) flows - q again quits at once"
    }

    /// Applies an engine event that happened at `time`. Returns the commands it triggers: while
    /// quitting, a newly submitted flow is cancelled at once.
    public mutating func apply(_ event: FlowEvent, at time: Duration) -> [Command] {
        advance(to: time)
        if quitting, case .statusChanged(let id, let status) = event, status.isFinished, live.flow(id)?.phase.isActive == true {
            endedWhileQuitting += 1
        }
        live.apply(event, at: time)
        guard case .flowQueued(let info) = event else { return [] }
        if selection == nil { selection = info.id }
        return quitting ? [.cancel(info.id)] : []
    }

    /// Takes in what a manager's snapshot shows (a dashboard attaching to a running program);
    /// see ``FlowBoard/adopt(_:at:)``.
    public mutating func adopt(_ snapshot: ManagerSnapshot, at time: Duration) {
        advance(to: time)
        live.adopt(snapshot, at: time)
        if selection == nil { selection = live.flows.first?.info.id }
    }

    /// Adds a line to the log that no engine event produced.
    public mutating func note(_ text: String, level: LogLevel, at time: Duration) {
        advance(to: time)
        live.note(text, level: level, at: time)
    }

    /// Moves the clock on, so elapsed times grow while nothing else happens.
    public mutating func advance(to time: Duration) {
        now = max(now, time)
    }

    /// Freezes the view on the current board, or follows the engine again.
    mutating func togglePause() {
        frozen = paused ? nil : live
    }

    /// Keeps the selection on a visible flow after the list or the filter changed.
    mutating func keepSelectionVisible() {
        let visible = visibleFlows
        if let selection, visible.contains(where: { $0.info.id == selection }) { return }
        selection = visible.first?.info.id
        detailScroll = 0
    }
}
