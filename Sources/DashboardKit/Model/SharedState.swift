import TaskFlow

/// What every view of the dashboard reads and may change, beside the views' own state: the
/// flows the engine reported (the header, the lock, the event log and the quit follow them in
/// every view), the mode, the notice, the log's scroll and the clock. Part of the
/// ``DashboardModel`` value, handed to the shown view's keys (``DashboardTab/perform(_:_:)``).
package struct SharedState: Sendable {
    /// The scenario's name, shown in the header.
    package var scenario: String
    /// The active theme's name, shown in the header.
    package var themeName: String
    /// The board that keeps following the engine, paused or not.
    package private(set) var live: FlowBoard
    /// The board frozen by `p`, shown instead of ``live`` while paused.
    package private(set) var frozen: FlowBoard?
    /// What the keys do now: normal, help, filter, confirm, quitting.
    package var mode = Mode.normal
    /// A one-line message for the status bar (the outcome of the last key).
    package var notice: String?
    /// The number (``EventLog/endNumber`` style) one past the last log line in view while the
    /// log is scrolled back; nil follows the newest line. A line number rather than an offset
    /// keeps the view still while new lines arrive.
    package private(set) var logAnchor: Int?
    /// Rows of the panes the keys scroll, as last told (see ``DashboardModel/resize(_:)``).
    package private(set) var panes = PaneRows.none
    /// Flows that ended since the first `q`: beside those still active, how far the quit is.
    package private(set) var endedWhileQuitting = 0
    /// The latest time the model heard of, since the dashboard started; drives elapsed times.
    /// In a replay, the position in the recording.
    package private(set) var now: Duration = .zero
    /// True when the flows run in another program, which goes on after the dashboard (an
    /// attached one): `q` leaves at once, and their flows keep running there.
    package var quitLeavesFlowsRunning = false
    /// In a replay, what its time bar shows; nil otherwise.
    package var replay: ReplayStatus?
    /// The event log while it has the keys (`L`); nil while the views have them.
    package var logFocus: LogFocus?
    /// Durations and per-second outcomes of the engine's flows (the header's sparklines, the
    /// detail pane's percentiles, the lock panel's waits). Follows the engine while paused.
    package private(set) var statistics = RunStatistics()
    /// When the warnings fire (the preferences' `[warnings]` table, else the defaults).
    package var warningThresholds = WarningThresholds()

    init(scenario: String, themeName: String, live: FlowBoard) {
        self.scenario = scenario
        self.themeName = themeName
        self.live = live
    }

    /// What the screen shows: the frozen board while paused, else the live one.
    package var board: FlowBoard { frozen ?? live }

    /// True while `p` froze the view.
    package var paused: Bool { frozen != nil }

    /// How many lines the log is scrolled back from the newest (0 while following it).
    package var logScroll: Int {
        let log = board.log
        let scroll = logAnchor.map(log.scroll(endingBefore:)) ?? 0
        return min(scroll, log.maxScroll(count: panes.logRows))
    }

    /// True after the first `q`: active flows are rolling back before the program exits.
    package var quitting: Bool { mode == .quitting }

    /// True once a quit was asked for and no flow is active any more.
    package var readyToExit: Bool { quitting && !live.hasActiveFlows }

    /// While quitting, the status bar's line: the flows still rolling back, counted as the header
    /// counts them, of every flow the quit waits for (those active at the first `q` and those
    /// submitted since), updated as they end.
    package var quitNotice: String? {
        guard quitting else { return nil }
        let active = live.activeFlows
        return "quitting: rolling back \(active) of \(active + endedWhileQuitting) flows - q again quits at once"
    }

    // MARK: - Changes

    /// Applies an engine event that happened at `time` to the live board.
    mutating func apply(_ event: FlowEvent, at time: Duration) {
        advance(to: time)
        if quitting, case .statusChanged(let id, let status) = event, status.isFinished, live.flow(id)?.phase.isActive == true {
            endedWhileQuitting += 1
        }
        // Before the board takes the event: the run's start and title are read from its row.
        // Only the row is copied: a copy of the board kept across its change would copy every
        // flow and the log at each event.
        let row = live.flow(event.flowID)
        statistics.record(event, at: time) { $0 == row?.info.id ? row : nil }
        live.apply(event, at: time)
    }

    /// Takes in what a manager's snapshot shows; see ``FlowBoard/adopt(_:at:origin:)``.
    mutating func adopt(_ snapshot: ManagerSnapshot, at time: Duration, origin: ContinuousClock.Instant?) {
        advance(to: time)
        live.adopt(snapshot, at: time, origin: origin)
    }

    /// Replaces the live board's flows and lock with `snapshot`'s; see ``FlowBoard/resync(_:at:origin:)``.
    mutating func resync(_ snapshot: ManagerSnapshot, at time: Duration, origin: ContinuousClock.Instant?) -> [FlowID] {
        advance(to: time)
        return live.resync(snapshot, at: time, origin: origin)
    }

    /// Adds a line to the log that no engine event produced, about `subject` if one.
    mutating func note(_ text: String, level: LogLevel, at time: Duration, subject: LogSubject? = nil) {
        advance(to: time)
        live.note(text, level: level, at: time, subject: subject)
    }

    /// Moves the clock on, so elapsed times grow while nothing else happens.
    mutating func advance(to time: Duration) {
        now = max(now, time)
    }

    /// Takes the pane sizes of a resized screen.
    mutating func resize(_ panes: PaneRows) {
        self.panes = panes
    }

    /// Freezes the view on the current board, or follows the engine again.
    mutating func togglePause() {
        frozen = paused ? nil : live
    }

    /// Scrolls the log `lines` back (negative: forward), within what the pane can show. Back
    /// at the newest line, the log follows new lines again.
    mutating func scrollLog(by lines: Int) {
        let log = board.log
        let scroll = min(max(logScroll + lines, 0), log.maxScroll(count: panes.logRows))
        logAnchor = scroll == 0 ? nil : log.endNumber - scroll
    }

    /// Cancels every flow a cancel still affects; the notice says why and how many.
    mutating func cancelAll(reason: String) -> [Command] {
        let ids = live.flows.filter(\.phase.acceptsCancel).map(\.info.id)
        notice = ids.isEmpty ? "no running or waiting flow to cancel" : "\(reason) (\(ids.count))"
        return ids.map(Command.cancel)
    }

    /// First `q`: roll back what runs, then exit; the status bar says how far it is
    /// (``quitNotice``). Second `q` (or nothing active): exit now. With
    /// ``quitLeavesFlowsRunning`` (the flows are another program's) or in a replay (what it shows
    /// already happened), exit now, leaving nothing behind.
    mutating func quit() -> [Command] {
        if quitLeavesFlowsRunning || replay != nil { return [.exit(leftover: [])] }
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
