import TaskFlow

/// The whole state of the dashboard as a value: what every view shares (``SharedState``: the
/// flows the engine reported, the mode, the notice) and the views themselves
/// (``DashboardTab``s: flows, then whatever was attached), one of them shown. Changed only by
/// ``apply(_:at:)`` for engine events, ``handle(_:)`` for keys and the views' own feeds, all
/// pure, so every screen can be reproduced in a test from a list of events and keys.
///
/// The shared state's properties read as the model's own (`model.live`, `model.notice`).
@dynamicMemberLookup
package struct DashboardModel: Sendable {
    /// What every view shares.
    package internal(set) var shared: SharedState
    /// The views `Tab` goes through, in order: the flows first, then the others as attached.
    package internal(set) var tabs: [any DashboardTab] = [FlowsTab()]
    /// The index in ``tabs`` of the view shown.
    package internal(set) var shownIndex = 0

    /// An empty dashboard for `scenario` that keeps the last `historyLimit` finished flows.
    package init(
        scenario: String, themeName: String = "default", logCapacity: Int = 1000,
        historyLimit: Int = FlowBoard.defaultHistoryLimit
    ) {
        shared = SharedState(
            scenario: scenario, themeName: themeName, live: FlowBoard(logCapacity: logCapacity, historyLimit: historyLimit))
    }

    /// A property of the shared state, read as the model's.
    package subscript<T>(dynamicMember keyPath: KeyPath<SharedState, T>) -> T {
        shared[keyPath: keyPath]
    }

    /// A property of the shared state that the session and the views may set, set as the model's.
    package subscript<T>(dynamicMember keyPath: WritableKeyPath<SharedState, T>) -> T {
        get { shared[keyPath: keyPath] }
        set { shared[keyPath: keyPath] = newValue }
    }

    // MARK: - Views

    /// The view shown.
    package var shownTab: any DashboardTab { tabs[shownIndex] }

    /// The flows view, always the first.
    package var flows: FlowsTab {
        // The initialiser puts it first and ``add(_:showing:)`` never replaces it.
        tab(FlowsTab.self) ?? FlowsTab()
    }

    /// The view of type `T`, if the model has one.
    package func tab<T: DashboardTab>(_ type: T.Type) -> T? {
        tabs.lazy.compactMap { $0 as? T }.first
    }

    /// Changes the view of type `T` in place, if the model has one; returns what `change`
    /// returned.
    @discardableResult
    package mutating func update<T: DashboardTab, Result>(_ type: T.Type, _ change: (inout T) -> Result) -> Result? {
        for index in tabs.indices {
            if let result = tabs[index].change(as: type, change) { return result }
        }
        return nil
    }

    /// Adds `tab` after the others (in place of one of its type, if any); `showing` it shows it.
    package mutating func add<T: DashboardTab>(_ tab: T, showing: Bool = false) {
        // The flows view stays first: another view never takes its place.
        let index = tabs.indices.dropFirst().first { tabs[$0] is T } ?? tabs.endIndex
        if index == tabs.endIndex { tabs.append(tab) } else { tabs[index] = tab }
        if showing { shownIndex = index }
    }

    /// What panel titles say `Tab` goes to; nil with only one view.
    package var nextTabName: String? {
        tabs.count > 1 ? tabs[(shownIndex + 1) % tabs.count].name : nil
    }

    /// True while something on screen moves with time alone: flows' elapsed times in every view
    /// (the header and log move with them), whatever the shown view animates, a replay's
    /// time bar while it plays, and the header's sparklines for a minute after a run ended.
    package var isAnimated: Bool {
        shared.board.hasActiveFlows || shownTab.isAnimated(shared) || shared.replay?.isPlaying == true || sparklinesMove
    }

    // MARK: - The engine's events

    /// Takes the pane sizes of a resized screen, so that scrolling keys stop where the panes'
    /// content ends. The session sends it whenever the backend's size changes.
    package mutating func resize(_ panes: PaneRows) {
        shared.resize(panes)
    }

    /// Applies an engine event that happened at `time`. Returns the commands it triggers: while
    /// quitting, a newly submitted flow is cancelled at once.
    package mutating func apply(_ event: FlowEvent, at time: Duration) -> [Command] {
        shared.apply(event, at: time)
        guard case .flowQueued(let info) = event else { return [] }
        update(FlowsTab.self) { $0.listed(info.id) }
        return shared.quitting ? [.cancel(info.id)] : []
    }

    /// Takes in what a manager's snapshot shows (a dashboard attaching to a running program);
    /// see ``FlowBoard/adopt(_:at:origin:)``.
    package mutating func adopt(_ snapshot: ManagerSnapshot, at time: Duration, origin: ContinuousClock.Instant? = nil) {
        shared.adopt(snapshot, at: time, origin: origin)
        if let first = shared.live.flows.first?.info.id { update(FlowsTab.self) { $0.listed(first) } }
    }

    /// Takes `snapshot` as the truth after `missed` events were lost on the way (a console
    /// client that fell behind): the flows and the lock become what it shows (see
    /// ``FlowBoard/resync(_:at:origin:)``), and the log and the status line warn "missed n
    /// events; resynchronised". Returns the flows that left the board, whose end was missed.
    @discardableResult
    package mutating func resync(
        _ snapshot: ManagerSnapshot, missed: Int, at time: Duration, origin: ContinuousClock.Instant? = nil
    ) -> [FlowID] {
        let left = shared.resync(snapshot, at: time, origin: origin)
        if let first = shared.live.flows.first?.info.id { update(FlowsTab.self) { $0.listed(first) } }
        shared.note(Self.resyncLine(missed: missed, ended: left.count), level: .warning, at: time)
        shared.notice = Self.resyncNotice(missed: missed)
        return left
    }

    /// The status line's warning after a resync that followed `missed` lost events.
    static func resyncNotice(missed: Int) -> String {
        "missed \(missed) events; resynchronised"
    }

    /// The log's line for that resync, which let go of `ended` flows whose end was missed; a
    /// headless viewer prints it too (``EventPrinter``).
    package static func resyncLine(missed: Int, ended: Int) -> String {
        let notice = resyncNotice(missed: missed)
        return ended == 0 ? notice : "\(notice) (\(ended) flow(s) ended meanwhile)"
    }

    /// Adds a line to the log that no engine event produced.
    package mutating func note(_ text: String, level: LogLevel, at time: Duration, subject: LogSubject? = nil) {
        shared.note(text, level: level, at: time, subject: subject)
    }

    /// Moves the clock on, so elapsed times grow while nothing else happens.
    package mutating func advance(to time: Duration) {
        shared.advance(to: time)
    }
}
