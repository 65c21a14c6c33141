@testable import DashboardKit
import TaskFlow
import Testing

@Suite("Model: events")
struct ModelEventTests {
    @Test func flowsAppearInSubmissionOrderWithTheirStatus() {
        let model = Fixture.model(Fixture.busy)
        #expect(model.board.flows.map(\.info.title) == ["Import books", "Build report", "Migrate archive"])
        #expect(model.board.flows.map(\.phase) == [.completed, .waiting, .running])
        #expect(model.board.counts[.completed] == 1 && model.board.counts[.waiting] == 1 && model.board.counts[.running] == 1)
        #expect(model.flows.selection == FlowID(1), "the first flow is selected when it arrives")
    }

    @Test func aFlowAnnouncedAfterLaterOnesIsListedInItsPlaceById() throws {
        // The start-up's boot row (#0) comes from the boot's events, another stream than the
        // manager's: it may be read after the first flows were.
        let events = Fixture.busy + [
            .flowQueued(Fixture.info(0, "Start-up", .read)), .statusChanged(FlowID(3), .completed),
        ]
        let model = Fixture.model(events)
        #expect(model.board.flows.map(\.info.title) == ["Start-up", "Import books", "Build report", "Migrate archive"])
        let migrate = try #require(model.board.flow(FlowID(3)), "rows moved down are still found by id")
        #expect(migrate.info.title == "Migrate archive")
        #expect(model.board.flows.map(\.phase) == [.queued, .completed, .waiting, .completed], "and updated in place")
        #expect(try #require(model.board.flow(FlowID(0))).info.title == "Start-up")
        #expect(model.flows.selection == FlowID(1), "the selection stays on its flow")
    }

    @Test func stepTreeNestsChildrenUnderTheirGroup() throws {
        let model = Fixture.model(Fixture.busy)
        let flow = try #require(model.board.flow(FlowID(1)))
        #expect(flow.steps.map(\.info.title) == ["Open import panel", "Fetch covers", "cover 1", "cover 2"])
        #expect(flow.steps.map(\.depth) == [0, 0, 1, 1])
        #expect(flow.steps.allSatisfy { $0.status == .completed })
    }

    @Test func currentStepAndProgressFollowTheRunningStep() throws {
        let migrate = try #require(Fixture.model(Fixture.busy).board.flow(FlowID(3)))
        #expect(migrate.current?.info.title == "batch 2")
        #expect(migrate.current?.progress == 0.4)
    }

    @Test func lockBoardTracksHoldersAndQueueInOrder() {
        let lock = Fixture.model(Fixture.busy).board.lock
        #expect(lock.mode == .write(FlowID(3)))
        #expect(lock.holders.map(\.id) == [FlowID(3)])
        #expect(lock.queue.map(\.id) == [FlowID(2)])
    }

    @Test func rollbackMarksStepsRevertingThenRevertedLastFirst() throws {
        var events = Fixture.busy
        events += [
            .statusChanged(FlowID(3), .cancelling),
            .stepFinished(FlowID(3), StepID(3), .cancelled),
            .stepReverting(FlowID(3), Fixture.step(2, "batch 1", parent: 1)),
        ]
        let midway = Fixture.model(events)
        #expect(midway.board.flow(FlowID(3))?.step(StepID(2))?.status == .reverting)
        #expect(midway.board.flow(FlowID(3))?.phase == .cancelling)
        events += [.stepReverted(FlowID(3), Fixture.step(2, "batch 1", parent: 1)), .statusChanged(FlowID(3), .cancelled)]
        let done = try #require(Fixture.model(events).board.flow(FlowID(3)))
        #expect(done.step(StepID(2))?.status == .reverted)
        #expect(done.step(StepID(3))?.status == .cancelled)
        #expect(done.phase == .cancelled && done.currentStep == nil)
        let log = Fixture.model(events).board.log.entries.map(\.text)
        #expect(log.contains("#3 \"Migrate archive\" ◂ reverted step 2 \"batch 1\""))
    }

    @Test func failureKeepsItsMessage() throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "HTTP 409" } }
        let model = Fixture.model([.flowQueued(Fixture.migrate), .statusChanged(FlowID(3), .failed(Boom()))])
        #expect(model.board.flow(FlowID(3))?.phase == .failed)
        #expect(model.board.flow(FlowID(3))?.failureMessage == "HTTP 409")
        #expect(model.board.log.entries.last?.level == .error)
    }

    @Test func logKeepsOnlyItsCapacity() {
        var board = FlowBoard(logCapacity: 10)
        for index in 0..<100 { board.note("line \(index)", level: .info, at: .zero) }
        let window = board.log.window(count: 3, scroll: 0).map(\.text)
        #expect(window == ["line 97", "line 98", "line 99"])
        #expect(board.log.maxScroll(count: 3) == 7)
        #expect(board.log.window(count: 3, scroll: 7).map(\.text) == ["line 90", "line 91", "line 92"])
    }
}

@Suite("Model: keys")
struct ModelKeyTests {
    @Test func arrowsAndVimKeysMoveTheSelectionWithinBounds() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.down)
        #expect(model.flows.selection == FlowID(2))
        _ = model.handle(.character("j"))
        _ = model.handle(.character("j"))
        #expect(model.flows.selection == FlowID(3), "stops at the last flow")
        _ = model.handle(.character("k"))
        _ = model.handle(.up)
        _ = model.handle(.up)
        #expect(model.flows.selection == FlowID(1), "stops at the first flow")
    }

    @Test func cancelAsksForTheSelectedRunningFlowOnly() {
        var model = Fixture.model(Fixture.busy)
        #expect(model.handle(.character("c")).isEmpty, "#1 is done")
        #expect(model.notice?.contains("nothing to cancel") == true)
        _ = model.handle(.end)
        #expect(model.handle(.character("c")) == [.cancel(FlowID(3))])
    }

    @Test func cancelAllCancelsRunningAndWaitingFlows() {
        var model = Fixture.model(Fixture.busy)
        #expect(Set(model.handle(.character("C"))) == [.cancel(FlowID(2)), .cancel(FlowID(3))])
    }

    @Test func undoNeedsConfirmationAndACompletedWriteFlow() {
        var model = Fixture.model(Fixture.busy)
        #expect(model.handle(.character("u")).isEmpty)
        #expect(model.mode.question?.yes == [.undo(FlowID(1))])
        #expect(model.handle(.character("x")).isEmpty, "other keys do not answer")
        #expect(model.handle(.character("n")).isEmpty)
        #expect(model.mode == .normal)
        _ = model.handle(.character("u"))
        #expect(model.handle(.character("y")) == [.undo(FlowID(1))])
        _ = model.handle(.down)
        _ = model.handle(.character("u"))
        #expect(model.mode == .normal, "a read flow cannot be undone")
        #expect(model.notice?.contains("read flow") == true)
    }

    @Test func firstQuitRollsBackWhatRunsSecondQuitExitsAtOnce() {
        var model = Fixture.model(Fixture.busy)
        #expect(Set(model.handle(.character("q"))) == [.cancel(FlowID(2)), .cancel(FlowID(3))])
        #expect(model.quitting && !model.readyToExit)
        #expect(model.quitNotice == "quitting: rolling back 2 of 2 flows - q again quits at once")
        let second = model.handle(.character("q"))
        guard case .exit(let leftover)? = second.first else {
            Issue.record("expected an exit, got \(second)")
            return
        }
        #expect(leftover.count == 2)
    }

    @Test func quitIsReadyOnceEveryFlowHasRolledBack() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("q"))
        _ = model.apply(.statusChanged(FlowID(2), .cancelled), at: .seconds(9))
        #expect(!model.readyToExit)
        _ = model.apply(.statusChanged(FlowID(3), .cancelled), at: .seconds(9))
        #expect(model.readyToExit)
        #expect(model.apply(.flowQueued(Fixture.info(9, "late")), at: .seconds(9)) == [.cancel(FlowID(9))],
                "a flow submitted while quitting is cancelled at once")
    }

    /// The quit says how many flows it waits for, as the header counts them, and how many are
    /// still rolling back as they end; a flow submitted meanwhile counts too. It once said the
    /// rows it cancelled at the first `q` and never moved.
    @Test func theQuitCountsTheFlowsItWaitsForAsTheyEnd() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("q"))
        #expect(model.live.activeFlows == model.live.counts[.waiting, default: 0] + model.live.counts[.running, default: 0])
        #expect(model.quitNotice == "quitting: rolling back 2 of 2 flows - q again quits at once")
        _ = model.apply(.statusChanged(FlowID(2), .cancelled), at: .seconds(9))
        #expect(model.quitNotice == "quitting: rolling back 1 of 2 flows - q again quits at once")
        let late = Fixture.info(4, "Late reader", .read)
        #expect(model.apply(.flowQueued(late), at: .seconds(9)) == [.cancel(late.id)])
        #expect(model.quitNotice == "quitting: rolling back 2 of 3 flows - q again quits at once")
        _ = model.apply(.statusChanged(FlowID(3), .cancelling), at: .seconds(9))
        _ = model.apply(.statusChanged(FlowID(3), .rollingBack(.cancelled)), at: .seconds(9))
        #expect(model.quitNotice == "quitting: rolling back 2 of 3 flows - q again quits at once", "rolling back is still active")
        _ = model.apply(.statusChanged(FlowID(3), .cancelled), at: .seconds(9))
        _ = model.apply(.statusChanged(late.id, .cancelled), at: .seconds(9))
        #expect(model.quitNotice == "quitting: rolling back 0 of 3 flows - q again quits at once")
        #expect(model.readyToExit)
        let bar = DashboardView(glyphs: .ascii).render(Fixture.model(Fixture.busy).afterTheFirstQuit(), size: GridSize(width: 100, height: 30))
        #expect(bar.text.split(separator: "\n").last?.hasPrefix("quitting: rolling back 2 of 2 flows") == true, "the status bar says it")
    }

    @Test func quitWithNothingActiveExitsAtOnce() {
        var model = Fixture.model([.flowQueued(Fixture.importBooks), .statusChanged(FlowID(1), .completed)])
        #expect(model.handle(.character("q")) == [.exit(leftover: [])])
    }

    @Test func filterNarrowsTheListAndEscapeClearsIt() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("/"))
        for character in "MIG" { _ = model.handle(.character(character)) }
        #expect(model.flows.visibleFlows(model.shared).map(\.info.id) == [FlowID(3)], "case-insensitive")
        #expect(model.flows.selection == FlowID(3), "the selection moves onto a visible flow")
        _ = model.handle(.enter)
        #expect(model.mode == .normal && model.flows.filter == "MIG")
        _ = model.handle(.character("q"))
        #expect(model.quitting, "after Enter, keys act again")
        _ = model.handle(.escape)
        #expect(model.flows.filter.isEmpty && model.flows.visibleFlows(model.shared).count == 3)
    }

    @Test func pauseFreezesTheViewWhileTheEngineGoesOn() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("p"))
        _ = model.apply(.statusChanged(FlowID(3), .completed), at: .seconds(5))
        #expect(model.paused)
        #expect(model.board.flow(FlowID(3))?.phase == .running, "the view is frozen")
        #expect(model.live.flow(FlowID(3))?.phase == .completed, "the engine's news is kept")
        _ = model.handle(.character("p"))
        #expect(model.board.flow(FlowID(3))?.phase == .completed)
    }

    @Test func helpClosesOnAnyKeyWithoutActing() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("?"))
        #expect(model.mode == .help)
        #expect(model.handle(.character("q")).isEmpty)
        #expect(model.mode == .normal)
    }

    @Test func pageKeysScrollTheLogWithinItsLength() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.pageUp)
        #expect(model.logScroll == DashboardModel.logPage)
        for _ in 0..<50 { _ = model.handle(.pageUp) }
        #expect(model.logScroll <= model.live.log.entries.count)
        for _ in 0..<50 { _ = model.handle(.pageDown) }
        #expect(model.logScroll == 0)
    }

    @Test func enterMovesTheArrowsToTheStepTree() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.enter)
        #expect(model.flows.focus == .detail)
        _ = model.handle(.down)
        #expect(model.flows.selection == FlowID(1) && model.flows.detailScroll == 1)
    }

    @Test func whileQuittingOnlyMovingAroundThemeAndQuitAct() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("q"))
        #expect(model.mode == .quitting)
        for key in "cCup/?".map(Key.character) {
            #expect(model.handle(key).isEmpty, "\(key) does nothing while quitting")
            #expect(model.mode == .quitting && !model.paused)
        }
        #expect(model.quitNotice?.contains("q again quits at once") == true, "the quit notice stays")
        _ = model.handle(.down)
        #expect(model.flows.selection == FlowID(2), "moving around still works")
        #expect(model.handle(.character("t")) == [.cycleTheme])
        model.notice = "theme: light (t for the next)"
        _ = model.handle(.down)
        #expect(model.notice == nil, "the theme's notice shows until the next key, then the quit's progress")
        #expect(model.handle(.character("q")).first.map { if case .exit = $0 { true } else { false } } == true)
    }
}

/// `u` is greyed out in the status bar when the selected flow cannot be undone, and says why
/// when pressed (the engine announces when a flow leaves the undo history).
@Suite("Model: undo availability")
struct UndoAvailabilityTests {
    /// The role the status bar draws the `u` hint with.
    private func undoHintRole(_ model: DashboardModel) throws -> StyleRole {
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 30))
        let bottom = grid.rows.last.map(Array.init) ?? []
        let text = bottom.map { String($0.scalar) }.joined()
        let column = try #require(text.range(of: " u undo ").map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 })
        return bottom[column].role
    }

    @Test func undoIsOfferedForACompletedWriteFlowUntilItLeavesTheHistory() throws {
        var model = Fixture.model(Fixture.busy)
        #expect(model.flows.selection == FlowID(1) && model.flows.selectedFlow(model.shared)?.phase == .completed)
        #expect(try undoHintRole(model) == .keyHint)

        _ = model.apply(.undoExpired(FlowID(1)), at: .seconds(10))
        #expect(try undoHintRole(model) == .dim)
        _ = model.handle(.character("u"))
        #expect(model.mode == .normal, "no confirmation is asked")
        #expect(model.notice == "#1 left the undo history: it can no longer be undone")
    }

    @Test func undoIsGreyForARunningFlow() throws {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.end)
        #expect(model.flows.selectedFlow(model.shared)?.phase == .running)
        #expect(try undoHintRole(model) == .dim)
    }

    /// A group's children start in any order; the detail pane lists them in the group's order.
    @Test func groupChildrenAreListedInTheGroupsOrderWhateverStartsFirst() {
        var row = FlowRow(info: FlowInfo(id: FlowID(1), title: "f", access: .write), queuedAt: .zero)
        let group = StepInfo(id: StepID(1), parent: nil, title: "group", kind: .group)
        row.start(group, at: .zero)
        for id in [3, 4, 2] {
            row.start(StepInfo(id: StepID(id), parent: StepID(1), title: "child \(id)", kind: .task), at: .zero)
        }
        row.start(StepInfo(id: StepID(5), parent: StepID(3), title: "inside 3", kind: .main), at: .zero)
        row.start(StepInfo(id: StepID(6), parent: nil, title: "after", kind: .task), at: .zero)
        #expect(row.steps.map(\.info.title) == ["group", "child 2", "child 3", "inside 3", "child 4", "after"])
    }

    /// The dashboard takes the manager's snapshot just after the flows start; a step already
    /// running in it then also arrives as its own event, and once showed twice (one row stuck
    /// `running` after the flow was undone).
    @Test func aStepAdoptedFromASnapshotAndThenAnnouncedShowsOnce() throws {
        let step = Fixture.step(1, "Open import panel", .main)
        let snapshot = ManagerSnapshot(
            flows: [FlowSnapshot(info: Fixture.importBooks, status: .running, currentStep: step, progress: nil,
                                 steps: [StepSnapshot(info: step, status: .running, progress: nil)])],
            lock: LockSnapshot(mode: .write(FlowID(1)), holders: [], queue: []), undoable: [])
        var board = FlowBoard()
        board.adopt(snapshot, at: .zero)
        board.apply(.stepStarted(FlowID(1), step), at: .milliseconds(1))
        board.apply(.stepFinished(FlowID(1), StepID(1), .completed), at: .milliseconds(2))
        let row = try #require(board.flow(FlowID(1)))
        #expect(row.steps.map(\.info.title) == ["Open import panel"])
        #expect(row.steps.map(\.status) == [.completed])
    }

    /// A dashboard that attaches to a program running for minutes shows how long each flow and
    /// step has been under way, as the snapshot tells, not how long since it attached; a
    /// snapshot that tells nothing (an older program's) counts from the adoption, as before.
    @Test func aFlowAdoptedFromASnapshotShowsTheTimesItTells() throws {
        let origin = ContinuousClock.now  // the dashboard's start: its clock's zero
        let opened = Fixture.step(1, "Open import panel", .main)
        let importing = Fixture.step(2, "Import", .task)
        func snapshot(timed: Bool) -> ManagerSnapshot {
            let at = { (seconds: Int) in timed ? origin + .seconds(seconds) : nil }
            return ManagerSnapshot(
                flows: [FlowSnapshot(
                    info: Fixture.importBooks, status: .running, currentStep: importing, progress: 0.4,
                    steps: [StepSnapshot(info: opened, status: .completed, progress: nil, started: at(-90), ended: at(-85)),
                            StepSnapshot(info: importing, status: .running, progress: 0.4, started: at(-85))],
                    submitted: at(-95))],
                lock: LockSnapshot(mode: .write(FlowID(1)), holders: [Fixture.importBooks], queue: []), undoable: [])
        }
        var board = FlowBoard()
        board.adopt(snapshot(timed: true), at: .seconds(2), origin: origin)
        let row = try #require(board.flow(FlowID(1)))
        #expect(row.elapsed(at: .seconds(5)) == .seconds(100), "submitted 95 s before the dashboard started, 5 s into it")
        #expect(row.steps.map { $0.duration(at: .seconds(5)) } == [.seconds(5), .seconds(90)])
        #expect(board.log.entries.allSatisfy { $0.time == .seconds(2) }, "the log says when the dashboard learnt of it")

        // A resync after missed events keeps them.
        _ = board.resync(snapshot(timed: true), at: .seconds(7), origin: origin)
        #expect(board.flow(FlowID(1))?.elapsed(at: .seconds(7)) == .seconds(102))

        var older = FlowBoard()
        older.adopt(snapshot(timed: false), at: .seconds(2), origin: origin)
        #expect(older.flow(FlowID(1))?.elapsed(at: .seconds(5)) == .seconds(3))
        #expect(older.flow(FlowID(1))?.steps.map { $0.duration(at: .seconds(5)) } == [.zero, .seconds(3)])
    }

    /// A flow waiting for the lock when the dashboard attached has waited since it was
    /// submitted: the starved-writer warning and the lock's waits count from then.
    @Test func aWaiterAdoptedFromASnapshotWaitsSinceItsSubmission() throws {
        let origin = ContinuousClock.now
        let holder = FlowInfo(id: FlowID(1), title: "Long read", access: .read)
        let writer = FlowInfo(id: FlowID(2), title: "Starved write", access: .write)
        let snapshot = ManagerSnapshot(
            flows: [FlowSnapshot(info: holder, status: .running, currentStep: nil, progress: nil, submitted: origin - .seconds(700)),
                    FlowSnapshot(info: writer, status: .waiting, currentStep: nil, progress: nil, submitted: origin - .seconds(600))],
            lock: LockSnapshot(mode: .read(count: 1), holders: [holder], queue: [writer]), undoable: [])
        var board = FlowBoard()
        board.adopt(snapshot, at: .seconds(1), origin: origin)
        #expect(board.lock.queueAges.entry(writer.id)?.since == .seconds(-600))
        board.apply(.lock(LockEvent(holder: holder, change: .released, mode: .idle, waiting: 1)), at: .seconds(4))
        board.apply(.lock(LockEvent(holder: writer, change: .admitted, mode: .write(writer.id), waiting: 0)), at: .seconds(4))
        #expect(board.lock.waits.histogram.percentile(0.5) >= .seconds(600), "its whole wait, not the 3 s the dashboard saw")
    }
}

extension DashboardModel {
    /// The model after a first `q`.
    fileprivate func afterTheFirstQuit() -> DashboardModel {
        var model = self
        _ = model.handle(.character("q"))
        return model
    }
}
