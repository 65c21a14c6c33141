import Foundation
import TaskFlow

/// The running dashboard: owns the model, feeds it the engine's events, the queues' events,
/// the store's listings and the user's keys, and routes the commands the model returns to
/// what carries them out: the flows' handles (``FlowAdoption``), the job queues, the job store
/// (``StorePoller``), the theme catalog, the loop (exit). Lives on the main actor, which is the
/// dashboard's loop, so model changes and rendering never race.
@MainActor
package final class DashboardSession {
    /// The current state.
    package private(set) var model: DashboardModel
    /// True when something changed since the last frame.
    package private(set) var changed = true
    /// Set when the loop should end.
    package private(set) var exitRequest: DashboardExit?
    /// The active theme.
    package private(set) var theme: Theme
    /// The screen size the model was last told (see ``resize(to:)``).
    package private(set) var size: GridSize?
    /// Where the last frame drew what (see ``frame(size:glyphs:)``): a mouse event is read
    /// against what the user saw when they clicked.
    package private(set) var hitMap = HitMap()
    /// Called with every engine event after the model took it (an ``EventPrinter`` prints it).
    package var eventObserver: ((FlowEvent, Duration) -> Void)?
    /// Called with every job queue event after the model took it.
    package var jobEventObserver: ((JobEvent, Duration) -> Void)?
    /// Called after the model took a resynchronising snapshot, with how many events were missed
    /// and the flows it let go (their end was missed), at the session's time.
    package var resyncObserver: ((_ missed: Int, _ ended: [FlowID], Duration) -> Void)?
    /// Writes down what the session shows, if attached (see ``SessionRecording/attach(to:path:title:readOnly:)``).
    package var recording: SessionRecording?
    /// When set, the keys that would act on the program (cancel, undo, retry, pause a queue,
    /// steer the store) do nothing, and the status bar says this instead: a replay shows what
    /// happened, it cannot change it.
    package var readOnlyNotice: String?
    /// When set (a replay), the session's time: what ``elapsed`` returns instead of the time
    /// since the session started, so that elapsed times follow the recording, paused or not.
    package var timeline: (@MainActor () -> Duration)?
    /// The moment the session started: its times count from here.
    package let startedAt: ContinuousClock.Instant
    /// Where the choices made on screen (the theme, the sorts) are remembered; nil keeps none
    /// (a replay, a program without a home folder). Its warning thresholds go to the model.
    package var preferences: PreferenceKeeper? {
        didSet {
            restoreSorts()
            model.warningThresholds = preferences?.preferences.warnings ?? WarningThresholds()
        }
    }

    private let themes: ThemeCatalog
    private let exitsWhenScenarioEnds: Bool
    private let clock = ContinuousClock()
    private let historyLimit: Int
    /// The flows the keys can reach, each in its state between listed and let go.
    private var adoption = FlowAdoption()
    /// Flows that ended with a rollback left incomplete, dropped ones included.
    private var incompleteRollbacks = 0
    private var scenarioSubmitted = false
    /// Whether every flow due has been adopted, for a source whose handle stream never ends
    /// (``FlowSource/submitsUntilStopped``); for the others, only the stream's end says so.
    private var flowsAllIn: (FlowAdoption) -> Bool = { _ in false }
    private var stopSubmitting: (@MainActor () -> Void)?
    private var lastFrameAt: Duration?
    private var tasks: [Task<Void, Never>] = []
    /// The job store of the store view, listed and steered, if one is attached.
    private var store: StorePoller?
    /// The job queues of the queues view, if attached.
    private var queues: (any JobQueueSource)?

    /// How often elapsed times refresh while flows are active.
    static let clockTick = Duration.milliseconds(100)

    /// A session showing `scenarioName` in `theme`. With `exitsWhenScenarioEnds` (headless), the
    /// loop ends once every submitted flow has finished.
    package init(
        scenarioName: String, theme: Theme, themes: ThemeCatalog, exitsWhenScenarioEnds: Bool = false,
        historyLimit: Int = FlowBoard.defaultHistoryLimit
    ) {
        model = DashboardModel(scenario: scenarioName, themeName: theme.name, historyLimit: historyLimit)
        self.theme = theme
        self.themes = themes
        self.exitsWhenScenarioEnds = exitsWhenScenarioEnds
        self.historyLimit = historyLimit
        startedAt = clock.now
    }

    /// Time since the session started (or the ``timeline``'s): the model's clock.
    package var elapsed: Duration { timeline?() ?? clock.now - startedAt }

    /// `instant` on the session's clock; one before the session started (an attached
    /// program's event that came in before it) counts as its start.
    private func sessionTime(of instant: ContinuousClock.Instant) -> Duration {
        max(instant - startedAt, .zero)
    }

    /// Subscribes to the source's events, takes its manager's snapshot (flows that started
    /// before the dashboard attached), then starts its flows, so no event is missed. Flows
    /// the source submits later are adopted as they come.
    /// A ``WatchedSource``'s feed is followed instead of its events, and `q` leaves its flows
    /// running.
    package func start(_ source: some FlowSource) {
        // The queues first: a recording's first snapshot then names them (see ``adopt(_:queues:at:)``).
        if let queues = source.jobQueues { attachQueues(queues) }
        if let store = source.jobStore { attachStore(store, showing: true) }
        // Subscribed (the stream made) before the snapshot is taken, so that no event is missed.
        if let watched = source as? any WatchedSource {
            follow(watched.updates()) { $0.take($1) }
            model.quitLeavesFlowsRunning = true
        } else {
            follow(source.events()) { $0.ingest($1) }
        }
        adopt(source.snapshot())
        // Keys act on a listed flow at once when the source reaches it by id.
        adoption.reach = { source.handle(of: $0) }
        let submissions = source.start()
        // Flows the source submitted at once are listed at once (their events are on their
        // way): a key that arrives next — typed during the start-up — finds them.
        adopt(source.snapshot())
        stopSubmitting = { source.stopSubmitting() }
        if source.submitsUntilStopped {
            flowsAllIn = { adoption in source.newestFlowDue().map { adoption.newestAdopted ?? FlowID(0) >= $0 } ?? true }
        }
        tasks.append(Task { [weak self] in
            for await handle in submissions {
                self?.adopt(handle)
                self?.checkScenarioEnded()
            }
            self?.adoption.handlesEnded()
            self?.scenarioSubmitted = true
            self?.checkScenarioEnded()
        })
        // A source that submits until stopped may have nothing due at all.
        checkScenarioEnded()
    }

    /// Takes a source's events in order, in batches (see ``EventInbox``), each through `take`.
    private func follow<Event: Sendable>(
        _ events: AsyncStream<Event>, _ take: @escaping @MainActor (DashboardSession, Event) -> Void
    ) {
        let inbox = EventInbox<Event>()
        tasks.append(Task.detached { [weak self] in
            for await event in events where inbox.add(event) {
                Task { @MainActor [weak self] in
                    for event in inbox.drain() {
                        guard let self else { return }
                        take(self, event)
                    }
                }
            }
        })
    }

    /// Takes one piece of a watched program's feed.
    private func take(_ update: SourceUpdate) {
        switch update {
        case .event(let event): ingest(event)
        case .resync(let snapshot, let missed, let time): ingest(snapshot, missed: missed, at: time)
        case .notice(let text):
            model.notice = text
            changed = true
        case .ended:
            if exitRequest == nil { exitRequest = .quit(leftover: []) }
        }
    }

    /// Takes `snapshot` as the truth after `missed` events were lost (see
    /// ``DashboardModel/resync(_:missed:at:origin:)``); flows it shows ended meanwhile are let go.
    package func ingest(_ snapshot: ManagerSnapshot, missed: Int, at time: ContinuousClock.Instant) {
        ingest(snapshot, missed: missed, at: sessionTime(of: time))
    }

    /// Takes `snapshot` as the truth after `missed` events were lost, at `time` since the
    /// session's start (a replay's recorded time); the recording writes it down as such.
    package func ingest(_ snapshot: ManagerSnapshot, missed: Int, at time: Duration) {
        let ended = model.resync(snapshot, missed: missed, at: time, origin: startedAt)
        for id in ended { adoption.finished(id, board: model.live) }
        resyncObserver?(missed, ended, time)
        recording?.resynced(snapshot, missed: missed, at: time)
        changed = true
    }

    /// Returns once the flows due at `source`'s start (see ``start(_:)``) are listed: a start-up
    /// that holds the keys typed meanwhile ends after this, so that those keys act on the list
    /// the user sees once the flows are in (`j j c` cancels the second flow), not on the start-up
    /// alone, even when the source submits its flows from a task of its own.
    package func listFlowsDueAtStart(of source: some FlowSource) async {
        await source.flowsDueAtStartSubmitted()
        adopt(source.snapshot())
    }

    /// Takes in what a manager's snapshot shows, at `time` (by default now); `queues`, when the
    /// session shows none yet, become the queues view (a replay's recorded queues). The
    /// recording writes it down with the queues shown.
    package func adopt(_ snapshot: ManagerSnapshot, queues: [QueueDescription]? = nil, at time: Duration? = nil) {
        let time = time ?? elapsed
        if let queues, model.tab(QueuesTab.self) == nil {
            model.add(QueuesTab(queues: queues))
            restoreSorts()
        }
        model.adopt(snapshot, at: time, origin: startedAt)
        recording?.adopted(snapshot, queues: self.queues?.queues, at: time)
        changed = true
    }

    /// Shows `source` in the jobs view (`Tab`) and lists it every ``StorePoller/interval`` and
    /// after every key that changed it.
    package func attachStore(_ source: any JobStoreSource, showing: Bool = false) {
        store?.stop()
        model.add(StoreTab(name: source.name), showing: showing)
        restoreSorts()
        store = StorePoller(source, took: { [weak self] in self?.took($0, switches: $1, listedAt: $2) },
                            note: { [weak self] in self?.storeChanged($0) }, ran: { [weak self] in self?.model.storeRan($0) })
    }

    /// Logs a change of the job store at `time` (by default now); the recording writes it down.
    package func storeChanged(_ line: LogLine, at time: Duration? = nil) {
        let time = time ?? elapsed
        model.note(line.text, level: line.level, at: time)
        recording?.storeChanged(line, at: time)
        changed = true
    }

    /// Shows `source`'s queues in the queues view (`Tab`) and follows their events.
    package func attachQueues(_ source: any JobQueueSource, showing: Bool = false) {
        queues = source
        let events = source.events()
        model.add(QueuesTab(queues: source.queues), showing: showing)
        restoreSorts()
        tasks.append(Task { [weak self] in
            for await event in events { self?.ingest(event) }
        })
    }

    /// Applies a queue event at `time` (by default now).
    package func ingest(_ event: JobEvent, at time: Duration? = nil) {
        let time = time ?? elapsed
        model.apply(event, at: time)
        jobEventObserver?(event, time)
        recording?.ingested(event, at: time)
        changed = true
        checkScenarioEnded()
    }

    private func took(_ listing: Result<StoreListing, any Error>, switches: [StoreSwitch], listedAt date: Date) {
        switch listing {
        case .success(let listing): model.updateStore(listing, switches: switches, listedAt: date, time: elapsed)
        case .failure(let error): model.storeFailed("\(error)", at: elapsed)
        }
        changed = true
    }

    /// Draws a boot's progress as the first flow (see ``BootFlow``), with what `note` says of a
    /// task once it is done shown inside it.
    package func showBoot(_ progress: AsyncStream<BootEvent>, note: @escaping @Sendable (String) -> String? = { _ in nil }) {
        tasks.append(Task { [weak self] in
            var flow = BootFlow(note: note)
            for await event in progress {
                for shown in flow.events(for: event) { self?.ingest(shown) }
            }
        })
    }

    /// The start-up is over: the scenario's name for the header and the theme it chose, with
    /// why it is not the remembered one (`themeProblem`), for the log.
    package func started(scenarioName: String, theme: Theme, themeProblem: String? = nil) {
        model.scenario = scenarioName
        self.theme = theme
        model.themeName = theme.name
        if let themeProblem { note(themeProblem, level: .warning) }
        changed = true
    }

    /// The start-up failed: the loop ends, and the program says `message` and exits 2 — also
    /// when a `q` typed during the start-up asked to quit first (only a signal goes before).
    package func startUpFailed(_ message: String) {
        if case .signal = exitRequest { return }
        exitRequest = .startUpFailed(message: message)
    }

    /// Takes a newly submitted flow under the keys' control; while quitting it is cancelled
    /// at once, like every other flow.
    private func adopt(_ handle: FlowHandle) {
        if let undoNow = adoption.adopt(handle, listed: model.live.flow(handle.id) != nil, quitting: model.quitting) {
            undo(undoNow)
        }
    }

    /// Applies an engine event at the moment it happened (not when it arrived), and carries out
    /// what it triggers.
    package func ingest(_ event: TimedFlowEvent) {
        ingest(event.event, at: sessionTime(of: event.time))
    }

    /// Applies an engine event at `time` (by default now, on the session's clock) and carries
    /// out what it triggers.
    package func ingest(_ event: FlowEvent, at time: Duration? = nil) {
        let time = time ?? elapsed
        perform(model.apply(event, at: time))
        eventObserver?(event, time)
        recording?.ingested(event, at: time)
        changed = true
        if case .statusChanged(let id, let status) = event, status.isFinished {
            if case .rollbackIncomplete = status { incompleteRollbacks += 1 }
            adoption.finished(id, board: model.live)
        }
        if model.readyToExit, exitRequest == nil { exitRequest = .quit(leftover: []) }
        checkScenarioEnded()
    }

    /// Applies a key press and carries out what it asks for; a mouse event becomes what it
    /// means where the last frame drew (see ``MouseRouting``).
    package func handle(_ key: Key) {
        if case .mouse(let event) = key {
            for action in MouseRouting.actions(for: event, in: hitMap) { perform(model.point(action)) }
        } else {
            perform(model.handle(key))
        }
        if model.quitting, let stop = stopSubmitting {
            stopSubmitting = nil
            stop()
        }
        changed = true
    }

    /// Marks the screen stale when elapsed times need to move on (flows active).
    package func tick() {
        let now = elapsed
        model.advance(to: now)
        guard let lastFrameAt, now - lastFrameAt >= Self.clockTick else { return }
        // Flows' elapsed times and retry countdowns move on.
        if model.isAnimated { changed = true }
    }

    /// Tells the model the screen is now `size` (a message, like a key): the panes' rows
    /// bound its scrolling. Nothing happens when the size is the one it was told last.
    package func resize(to size: GridSize) {
        guard size != self.size else { return }
        self.size = size
        model.resize(PaneRows(layoutOf: size, timeBar: model.replay != nil))
        changed = true
    }

    /// Renders the current state for `size`, which the model must have been told with
    /// ``resize(to:)`` (the loop does both); the model is not changed. The screen is up to date
    /// once the grid is drawn.
    package func frame(size: GridSize, glyphs: Glyphs) -> CellGrid {
        lastFrameAt = model.now
        changed = false
        let grid = DashboardView(glyphs: glyphs).render(model, size: size)
        hitMap = grid.hitMap
        return grid
    }

    /// Forgets everything the model was told, then has `retell` tell it again (a replay seeking
    /// back re-applies its recording from the start up to the new position); the screen size,
    /// the theme, the time bar and the view shown are kept.
    package func rebuild(_ retell: () -> Void) {
        let (shown, replay, thresholds) = (model.shownIndex, model.replay, model.warningThresholds)
        model = DashboardModel(scenario: model.scenario, themeName: model.themeName, historyLimit: historyLimit)
        model.replay = replay
        model.warningThresholds = thresholds
        if let size { model.resize(PaneRows(layoutOf: size, timeBar: replay != nil)) }
        retell()
        if model.tabs.indices.contains(shown) { model.shownIndex = shown }
        changed = true
    }

    /// Shows a replay's time bar as `status` says (nil: none).
    package func showReplay(_ status: ReplayStatus?) {
        let barChanges = (model.replay == nil) != (status == nil)
        model.replay = status
        // The time bar takes a line from the panes: their scrolling bounds change with it.
        if barChanges, let size { model.resize(PaneRows(layoutOf: size, timeBar: status != nil)) }
        changed = true
    }

    /// Stops following the engine (the loop ended).
    package func stop() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        store?.stop()
    }

    // MARK: - Commands

    private func perform(_ commands: [Command]) {
        for command in commands {
            if let readOnlyNotice, command.actsOnProgram {
                model.notice = readOnlyNotice
                continue
            }
            switch command {
            case .cancel(let id): adoption.cancel(id)
            case .undo(let id): undo(id)
            case .retryStoredJob(let id): steerStore("retry of job \(id)") { try await $0.retry(id) }
            case .cancelStoredJob(let id): steerStore("cancel of job \(id)") { try await $0.cancel(id) }
            case .cancelQueuedJob(let id): queues?.cancel(id)
            case .retryQueuedJob(let id): retryQueued(id)
            case .setQueuePaused(let title, let paused): queues?.setPaused(paused, queue: title)
            case .wakeParkedJobs: store?.wakeParkedJobs()
            case .flipStoreSwitch(let key): store?.flip(key)
            case .cycleTheme: cycleTheme()
            case .rememberSort(let view, let sort): remember { $0.sorts[view] = sort }
            case .exit(let leftover): exitRequest = .quit(leftover: leftover)
            }
        }
    }

    /// Runs a change of the job store, lists it again at once, and logs a failure.
    private func steerStore(_ what: String, _ change: @escaping @Sendable (any JobStoreSource) async throws -> Void) {
        store?.steer(what, failed: { [weak self] in self?.note($0, level: .error) }, change)
    }

    /// Retries a queued job; the status bar says how it went.
    private func retryQueued(_ id: JobID) {
        guard let queues else { return }
        do {
            let runs = try queues.retry(id)
            let title = model.tab(QueuesTab.self)?.board.jobs[id]?.info.title ?? "\(id)"
            let skipped = runs.count > 1 ? ", with the \(runs.count - 1) job(s) it made fail" : ""
            model.notice = "\"\(title)\" queued again\(skipped)"
        } catch {
            model.notice = "not retried: \(error)"
        }
    }

    /// Undoes flow `id` now, or as soon as its handle arrives.
    private func undo(_ id: FlowID) {
        if let handle = adoption.undo(id) { undo(handle) }
    }

    private func undo(_ handle: FlowHandle) {
        tasks.append(Task { [weak self] in
            do {
                try await handle.undo()
            } catch {
                // The flow's own events show the rollback; this says why it did not complete.
                self?.note("undo of \(handle.id) failed: \(error)", level: .error)
            }
        })
    }

    private func cycleTheme() {
        do {
            theme = try themes.theme(after: theme.name)
            model.themeName = theme.name
            model.notice = "theme: \(theme.name) (t for the next)"
            remember { $0.theme = theme.name }
        } catch {
            note("theme: \(error)", level: .error)
        }
    }

    /// Sorts the views as the preferences remember them.
    private func restoreSorts() {
        guard let sorts = preferences?.preferences.sorts else { return }
        if let sort = sorts[FlowsTab.preferenceKey] { model.update(FlowsTab.self) { $0.restoreSort(sort) } }
        if let sort = sorts[QueuesTab.preferenceKey] { model.update(QueuesTab.self) { $0.restoreSort(sort) } }
        if let sort = sorts[StoreTab.preferenceKey] { model.update(StoreTab.self) { $0.restoreSort(sort) } }
        changed = true
    }

    /// Writes a choice made on screen to the preferences; a write that fails is said in the
    /// log (once) and changes nothing else.
    private func remember(_ change: (inout Preferences) -> Void) {
        guard let error = preferences?.remember(change) else { return }
        note("\(error)", level: .warning)
    }

    private func note(_ text: String, level: LogLevel) {
        model.note(text, level: level, at: elapsed)
        changed = true
    }

    /// In headless mode, ends the loop once every flow is in (the source's handle stream ended,
    /// or every flow due was adopted, see ``FlowSource/submitsUntilStopped``), every flow has
    /// finished and its events are in, and every job added has ended and its events are in too
    /// (they come on a stream of their own).
    private func checkScenarioEnded() {
        guard exitsWhenScenarioEnds, exitRequest == nil, scenarioSubmitted || flowsAllIn(adoption), adoption.allFinished
        else { return }
        if let queues, (model.tab(QueuesTab.self)?.board.endedTotal ?? 0) < queues.jobsAdded { return }
        exitRequest = .scenarioEnded(incompleteRollbacks: incompleteRollbacks)
    }
}
