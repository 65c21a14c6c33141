@testable import DashboardKit
import Foundation
import TaskFlow
import TaskFlowTestSupport
import Testing

/// The session over the real engine and the built-in demo, sped up twenty times. Waits are
/// long: the demo's foreground steps queue on the main actor behind every main-actor test of
/// the run, and in a full parallel run a demo of a second and a half once took over 30 s.
@Suite("Session: the demo through the real engine")
@MainActor
struct SessionTests {
    private func session(headless: Bool = false) -> DashboardSession {
        DashboardSession(
            scenarioName: "demo", theme: .fallback, themes: ThemeCatalog(directories: []), exitsWhenScenarioEnds: headless)
    }

    private func flow(_ title: String, in session: DashboardSession) -> FlowRow? {
        session.model.live.flows.first { $0.info.title == title }
    }

    @Test func demoRunsToItsEndWithTheSyncFlowRolledBack() async throws {
        let session = session(headless: true)
        session.start(BuiltInDemo(pace: 0.05))
        try #require(await eventually(within: 120) { session.exitRequest != nil }, "the demo's end")
        #expect(session.exitRequest == .scenarioEnded(incompleteRollbacks: 0))
        let sync = try #require(flow("Sync with server", in: session))
        #expect(sync.phase == .failed && sync.failureMessage == "server rejected the push (HTTP 409 conflict)")
        let applied = sync.steps.filter { $0.info.title != "push changes" && $0.info.kind != .sequence }
        #expect(applied.allSatisfy { $0.status == .reverted }, "every applied step was reverted: \(applied.map(\.status))")
        #expect(session.model.live.flows.filter { $0.phase == .completed }.count == 5)
    }

    @Test func cancellingTheLongFlowRevertsItsBatchesLastFirst() async throws {
        let session = session()
        session.start(BuiltInDemo(pace: 1))
        // Batch 3 or later: four batches of two seconds each, for a poll that a loaded machine
        // may run late (at 0.4 s a batch, three were once too few). The keys are typed in the
        // poll that sees it, with no hop in between.
        try #require(await eventually(within: 120) {
            let batch = flow("Migrate archive", in: session)?.current?.info.title
            guard ["batch 3/6", "batch 4/6", "batch 5/6", "batch 6/6"].contains(batch) else { return false }
            for key in [Key.character("/")] + "Migrate".map(Key.character) + [.enter, .character("c")] { session.handle(key) }
            return true
        }, "batch 3 of Migrate archive")
        try #require(await eventually(within: 120) { flow("Migrate archive", in: session)?.phase == .cancelled }, "the migration cancelled")
        let lines = session.model.live.log.entries.map(\.text).filter { $0.contains("Migrate") }
        func title(_ line: String) -> String { line.components(separatedBy: "\"").dropLast().last ?? "" }
        // The batch running when the cancel reached the engine stops early and is not reverted;
        // on a loaded machine it may be a later one than the screen showed.
        let stopped = try #require(lines.first { $0.hasSuffix("\" cancelled") && title($0).hasPrefix("batch ") }.map(title), "the batch the cancel stopped")
        let running = try #require(stopped.split(separator: " ").last?.split(separator: "/").first.flatMap { Int($0) })
        #expect(running >= 3)
        let reverted = lines.filter { $0.contains("◂ reverted") }.map(title)
        #expect(reverted == (1..<running).reversed().map { "batch \($0)/6" } + ["Open migration panel"])
    }

    /// Keys typed during the start-up act the moment it ends: the flows are listed by then, but
    /// their handles arrive a moment later. A cancel in between once went nowhere, and the flow
    /// completed under a notice saying it was rolling back.
    @Test func aCancelBeforeTheFlowsHandleArrivedStillCancelsIt() async throws {
        let session = session()
        session.start(BuiltInDemo(pace: 0.2))
        // Same turn of the main actor as the start: no handle has arrived yet.
        for key in [Key.character("/")] + "Count".map(Key.character) + [.enter, .character("c")] { session.handle(key) }
        try #require(await eventually(within: 120) { flow("Count books", in: session)?.phase.isActive == false })
        #expect(flow("Count books", in: session)?.phase == .cancelled)
    }

    /// Keys typed during the start-up are held by its boot, and act once the flows it started
    /// are listed: `j j c` cancels the second flow. A source submitting its flows from a task
    /// of its own (a scenario file's runner) once had them act on the start-up's row alone, and
    /// said "#0 is completed: nothing to cancel" while the second flow ran on.
    @Test func keysTypedDuringTheStartUpActOnTheFlowsItStarted() async throws {
        let session = session()
        let program = SlowlyStartingProgram()
        let boot = Boot<Key>(title: "Start taskflow")
        session.showBoot(boot.progress())
        boot.task("Start the flows") {
            await session.start(program)
            await session.listFlowsDueAtStart(of: program)
        }
        boot.observer("Keys") { key in await MainActor.run { session.handle(key) } }
        let booted = Task { try await boot.run() }
        try #require(await eventually(within: 120) { session.model.live.flows.first?.info.title == "Start taskflow" }, "the start-up as the first row")
        for key in "jjc" { boot.send(.character(key)) }
        program.submit.open()
        try await booted.value
        try #require(await eventually(within: 120) { session.model.notice != nil }, "the held keys acted")
        #expect(session.model.notice == "cancelling #2 \"Second\": rolling back")
        program.finish.open()
        // The three read flows end side by side, in no set order: wait for each.
        try #require(await eventually(within: 120) {
            ["First", "Second", "Third"].allSatisfy { flow($0, in: session)?.phase.isActive == false }
        }, "the flows ended")
        let second = try #require(flow("Second", in: session))
        #expect(second.phase == .cancelled)
        #expect(second.steps.map(\.status) == [.reverted, .reverted], "both steps rolled back")
        #expect(flow("First", in: session)?.phase == .completed)
        #expect(flow("Third", in: session)?.phase == .completed)
    }

    @Test func undoAfterConfirmationRevertsACompletedWriteFlow() async throws {
        let session = session()
        session.start(BuiltInDemo(pace: 0.05))
        try #require(await eventually(within: 120) { flow("Import books", in: session)?.phase == .completed }, "Import books completed")
        try #require(await eventually(within: 120) { session.model.live.flows.allSatisfy { !$0.phase.isActive } }, "the write lock free")
        session.handle(.home)
        session.handle(.character("u"))
        session.handle(.character("y"))
        try #require(await eventually(within: 120) { flow("Import books", in: session)?.phase == .undone }, "Import books undone")
        let steps = flow("Import books", in: session)?.steps ?? []
        #expect(!steps.isEmpty && steps.allSatisfy { $0.status == .reverted }, "\(steps.map { "\($0.info.title): \($0.status)" })")
    }

    @Test func firstQuitRollsBackThenAsksToExit() async throws {
        let session = session()
        session.start(BuiltInDemo(pace: 0.5))
        try #require(await eventually(within: 120) { flow("Import books", in: session)?.phase == .running }, "Import books running")
        session.handle(.character("q"))
        #expect(session.exitRequest == nil, "the first q waits for the rollback")
        try #require(await eventually(within: 120) { session.exitRequest != nil }, "the exit request")
        #expect(session.exitRequest == .quit(leftover: []))
        #expect(session.model.live.flows.allSatisfy { !$0.phase.isActive })
    }

    @Test func memoryBackendShowsTheFrameAndFollowsResizes() async throws {
        let session = session()
        session.start(BuiltInDemo(pace: 0.05))
        try #require(await eventually(within: 120) { session.model.live.flows.contains { $0.phase == .running } }, "some flow running")
        let backend = MemoryBackend(size: GridSize(width: 100, height: 30))
        let loop = MainLoop(session: session, backend: backend)
        _ = loop.run(until: .now + .milliseconds(50))
        #expect(backend.grid?.text.contains("Import books") == true)
        #expect(backend.grid?.size == GridSize(width: 100, height: 30))
        #expect(session.size == backend.size, "the model was told the size it was drawn at")
        backend.size = GridSize(width: 50, height: 10)
        #expect(backend.needsFrame)
        try #require(await eventually(within: 120) {
            _ = loop.run(until: .now + .milliseconds(20))
            return backend.grid?.text.contains("Terminal too small") == true
        }, "the small frame")
    }

    @Test func jsonLinesCarryEveryEventOfTheDemo() async throws {
        let session = session(headless: true)
        var lines: [String] = []
        EventPrinter(format: .json) { lines.append($0) }.attach(to: session)
        session.start(BuiltInDemo(pace: 0.05))
        try #require(await eventually(within: 120) { session.exitRequest != nil }, "the demo's end")
        let records = try lines.map { try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8)) }
        #expect(records.filter { $0.event == "flowQueued" }.count == 6)
        #expect(records.contains { $0.event == "stepReverted" && $0.title == "Sync with server" && $0.stepTitle == "Upload changes" })
        #expect(records.last { $0.flow == 4 && $0.event == "statusChanged" }?.status == "failed")
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func textLinesNameFlowsAndSteps() async throws {
        let session = session(headless: true)
        var lines: [String] = []
        EventPrinter(format: .text) { lines.append($0) }.attach(to: session)
        session.start(BuiltInDemo(pace: 0.05))
        try #require(await eventually(within: 120) { session.exitRequest != nil }, "the demo's end")
        #expect(lines.contains { $0.hasSuffix("#4 \"Sync with server\" step 6 \"push changes\" failed: server rejected the push (HTTP 409 conflict)") })
        #expect(lines.contains { $0.hasSuffix("#4 \"Sync with server\" failed: server rejected the push (HTTP 409 conflict)") })
    }

    @Test func textLinesEscapeControlCharactersInTitles() throws {
        let printer = EventPrinter(format: .text) { _ in }
        let queued = FlowEvent.flowQueued(Fixture.info(7, "evil\u{1B}[2J\nforged line"))
        let line = try #require(printer.line(for: queued, at: .seconds(1), board: FlowBoard()))
        #expect(line.hasSuffix("#7 queued (write)"), "the board does not know the title yet: \(line)")
        var board = FlowBoard()
        board.apply(queued, at: .seconds(1))
        let titled = try #require(printer.line(for: queued, at: .seconds(1), board: board))
        #expect(titled.hasSuffix(#"#7 "evil\u{1B}[2J\u{A}forged line" queued (write)"#), "\(titled)")
        #expect(!titled.contains("\u{1B}") && !titled.contains("\n"))
    }

    @Test func aDashboardAttachedToARunningProgramShowsTheFlowsStartedBefore() async throws {
        let program = RunningProgram()
        let release = AsyncStream.makeStream(of: Void.self)
        _ = program.manager.execute(title: "Started before", access: .write) { flow in
            try await flow.task(title: "outer") { outer in
                try await outer.task(title: "done inside", apply: { _ in })
                try await outer.task(title: "long step") { task in
                    task.progress(0.25)
                    for await _ in release.stream {}
                }
            }
        }
        try #require(await eventually(within: 120) {
            program.manager.snapshot().flows.first?.steps.last?.progress == 0.25
        }, "the flow in its nested step")
        let session = session()
        session.start(program)
        let row = try #require(flow("Started before", in: session), "the flow that started before the dashboard shows")
        #expect(row.phase == .running)
        #expect(row.current?.info.title == "long step")
        #expect(row.current?.progress == 0.25)
        #expect(row.steps.map { "\($0.info.title) \($0.depth) \($0.status.name)" } == [
            "outer 0 running", "done inside 1 completed", "long step 1 running",
        ], "the whole step tree, nested, from the snapshot")
        #expect(session.model.live.lock.mode == .write(row.info.id))
        #expect(session.model.flows.selection == row.info.id)
        release.continuation.finish()
        try #require(await eventually(within: 120) {
            flow("Started before", in: session)?.phase == .completed
        }, "the flow completed, from the events that follow")
        #expect(session.model.live.flows.count == 1, "the events repeating the snapshot add no row")
    }
}

/// A program's own manager with flows it started before any dashboard attached.
private struct RunningProgram: FlowSource {
    let manager = TaskFlowManager()
    var name: String { "program" }
    func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }
    func snapshot() -> ManagerSnapshot { manager.snapshot() }
    @MainActor func start() -> AsyncStream<FlowHandle> { .submitted([]) }
}

/// A program that submits its three flows from a task of its own once `submit` opens, as a
/// scenario file's runner does: they reach the manager a while after `start()` returned. Each
/// flow prepares, then holds until `finish` opens.
@MainActor
private final class SlowlyStartingProgram: FlowSource {
    nonisolated let manager = TaskFlowManager()
    nonisolated let submit = Gate()
    nonisolated let finish = Gate()
    /// Opened by each flow's Hold step as it starts: the flows are due at the start once all
    /// three hold, so that a key held by the start-up acts on a flow mid-way.
    nonisolated let holding = [Gate(), Gate(), Gate()]
    private var submitting: Task<Void, Never>?
    nonisolated var name: String { "slowly starting program" }
    nonisolated func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }
    nonisolated func snapshot() -> ManagerSnapshot { manager.snapshot() }

    func start() -> AsyncStream<FlowHandle> {
        let (handles, continuation) = AsyncStream.makeStream(of: FlowHandle.self)
        submitting = Task { [manager, submit, finish, holding] in
            await submit.wait()
            for (title, started) in zip(["First", "Second", "Third"], holding) {
                continuation.yield(FlowHandle(manager.execute(title: title, access: .read) { flow in
                    try await flow.task(title: "Prepare", apply: { _ in }, revert: { _, _ in })
                    try await flow.task(title: "Hold", apply: { _ in
                        started.open()
                        await finish.wait()
                    }, revert: { _, _ in })
                }))
            }
            continuation.finish()
        }
        return handles
    }

    func flowsDueAtStartSubmitted() async {
        await submitting?.value
        for gate in holding { await gate.wait() }
    }
}
