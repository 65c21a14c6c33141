@testable import DashboardKit
import Foundation
import TaskFlow
import Testing
@testable import taskflow

/// An attached dashboard that fell behind gets the program's snapshot again: what it shows
/// becomes that snapshot, and it says events were missed.
@Suite("Model: resynchronising from a snapshot")
struct ResyncTests {
    /// After `Fixture.busy` (#1 completed, #2 waiting, #3 running at 40 %), events were missed:
    /// #3 completed (still undoable), #2 got the lock and runs a step, #5 came and ended unseen
    /// (never shown), #4 was submitted.
    static var snapshot: ManagerSnapshot {
        let render = StepSnapshot(info: Fixture.step(1, "Render", .main), status: .running, progress: 0.5)
        let newcomer = Fixture.info(4, "Send invoices")
        return ManagerSnapshot(
            flows: [
                FlowSnapshot(info: Fixture.report, status: .running, currentStep: render.info, progress: 0.5, steps: [render]),
                FlowSnapshot(info: newcomer, status: .waiting, currentStep: nil, progress: nil),
            ],
            lock: LockSnapshot(mode: .read(count: 1), holders: [Fixture.report], queue: [newcomer]),
            undoable: [Fixture.importBooks, Fixture.migrate])
    }

    @Test func theFlowsAndTheLockBecomeTheSnapshotsAndTheUserIsWarned() throws {
        var model = Fixture.model(Fixture.busy)
        let left = model.resync(Self.snapshot, missed: 12, at: .seconds(5))
        #expect(left.isEmpty)
        #expect(model.board.flows.map(\.info.title) == ["Import books", "Build report", "Migrate archive", "Send invoices"])
        #expect(model.board.flows.map(\.phase) == [.completed, .running, .completed, .waiting])
        let report = try #require(model.board.flow(FlowID(2)))
        #expect(report.steps.map(\.info.title) == ["Render"] && report.current?.progress == 0.5)
        #expect(report.queuedAt == .milliseconds(100), "a known flow keeps its submission time")
        #expect(model.board.counts[.completed] == 2 && model.board.counts[.running] == 1 && model.board.counts[.waiting] == 1)
        #expect(model.board.lock.holders.map(\.id) == [FlowID(2)] && model.board.lock.queue.map(\.id) == [FlowID(4)])
        #expect(model.board.log.entries.last?.text == "missed 12 events; resynchronised")
        #expect(model.board.log.entries.last?.level == .warning)
        #expect(model.notice == "missed 12 events; resynchronised")
    }

    @Test func anActiveFlowGoneFromTheSnapshotAndNotUndoableLeavesTheBoard() {
        var model = Fixture.model(Fixture.busy)
        let snapshot = Self.snapshot
        let withoutMigrate = ManagerSnapshot(flows: snapshot.flows, lock: snapshot.lock, undoable: [Fixture.importBooks])
        let left = model.resync(withoutMigrate, missed: 3, at: .seconds(5))
        #expect(left == [FlowID(3)], "its end was missed: no outcome is made up for it")
        #expect(model.board.flow(FlowID(3)) == nil)
        #expect(!model.board.hasActiveFlows || model.board.activeFlows == 2, "only #2 and #4 are active")
        #expect(model.board.log.entries.last?.text == "missed 3 events; resynchronised (1 flow(s) ended meanwhile)")
    }
}

/// `q` in a dashboard attached to another program leaves: the flows are the program's.
@Suite("Model: quitting an attached dashboard")
struct AttachedQuitTests {
    @Test func quitLeavesAtOnceWithoutCancellingTheProgramsFlows() {
        var model = Fixture.model(Fixture.busy)
        model.quitLeavesFlowsRunning = true
        #expect(model.handle(.character("q")) == [.exit(leftover: [])], "no cancel is sent, nothing is left behind")
        #expect(!model.quitting)
    }
}

/// A recorded attach that fell behind replays as it was shown: the resynchronising snapshot is
/// written with its count, and the replay takes it as a resync, not as a first look.
@MainActor
@Suite("Recording: a resync")
struct RecordedResyncTests {
    @Test func aReplayLetsGoOfTheFlowsTheResyncLetGoAndWarnsAsTheSessionDid() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "resync-\(UUID().uuidString).jsonl").path
        defer { unlink(file) }
        let recorded = Self.session()
        let recording = try SessionRecording.attach(to: recorded, path: file, title: "Importer")
        Self.fallBehind(recorded)
        recording.close()

        let replayed = Self.session()
        let source = try ReplaySource.read(file, origin: replayed.startedAt)
        #expect(source.problem == nil)
        for entry in source.entries { entry.play(on: replayed) }
        for session in [recorded, replayed] {
            #expect(session.model.live.flow(FlowID(3)) == nil, "the flow whose end was missed is let go")
            #expect(session.model.live.flows.map(\.info.title) == ["Import books", "Build report", "Send invoices"])
            #expect(session.model.live.log.entries.last?.text == "missed 3 events; resynchronised (1 flow(s) ended meanwhile)")
            #expect(session.model.notice == "missed 3 events; resynchronised")
        }

        // A count that is no count is damage: a problem at its line, after what came before.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try #require(text.contains(#""missed":3"#))
        try text.replacingOccurrences(of: #""missed":3"#, with: #""missed":-3"#).write(toFile: file, atomically: true, encoding: .utf8)
        let damaged = try ReplaySource.read(file, origin: replayed.startedAt)
        let lines = text.split(separator: "\n").count
        #expect(damaged.problem == "\(file):\(lines): missed -3 is not a count of events")
        #expect(damaged.entries.count == source.entries.count - 1)
    }

    @Test func aHeadlessViewerIsToldOfTheResyncInTextAndInJSON() throws {
        let lines = Self.printedResync(format: .text)
        #expect(lines.filter { $0.contains("resynchronised") }.count == 1, "the events' lines, then the resync's")
        #expect(lines.last?.hasSuffix("  missed 3 events; resynchronised (1 flow(s) ended meanwhile)") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasPrefix("   5.0s") == true, "at the session's time: \(lines.last ?? "")")

        let records = Self.printedResync(format: .json)
        let resync = try JSONDecoder().decode(ResyncRecord.self, from: Data(try #require(records.last).utf8))
        #expect(resync == ResyncRecord(missed: 3, ended: [FlowID(3)], at: .seconds(5)))
        #expect(resync.event == "resync" && resync.time == 5)
        #expect(try records.dropLast().allSatisfy { try JSONDecoder().decode(EventRecord.self, from: Data($0.utf8)).event != "resync" })
    }

    @Test func aHeadlessReplayPrintsTheResyncAsTheRecordedRunDid() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "resync-\(UUID().uuidString).jsonl").path
        defer { unlink(file) }
        var recordedLines: [String] = []
        let recorded = Self.session()
        EventPrinter(format: .text) { recordedLines.append($0) }.attach(to: recorded)
        let recording = try SessionRecording.attach(to: recorded, path: file, title: "Importer")
        Self.fallBehind(recorded)
        recording.close()

        var replayedLines: [String] = []
        let replayed = Self.session()
        EventPrinter(format: .text) { replayedLines.append($0) }.attach(to: replayed)
        for entry in try ReplaySource.read(file, origin: replayed.startedAt).entries { entry.play(on: replayed) }
        #expect(replayedLines == recordedLines)
        #expect(replayedLines.last?.hasSuffix("missed 3 events; resynchronised (1 flow(s) ended meanwhile)") == true)
    }

    /// The lines a printer in `format` prints for a session that takes `Fixture.busy`, then
    /// falls behind (``fallBehind(_:)``).
    private static func printedResync(format: EventPrinter.Format) -> [String] {
        var lines: [String] = []
        let session = session()
        EventPrinter(format: format) { lines.append($0) }.attach(to: session)
        fallBehind(session)
        return lines
    }

    /// `Fixture.busy`, then a resync at 5 s after 3 missed events, which lets #3 go (it ended
    /// unseen and is not undoable).
    private static func fallBehind(_ session: DashboardSession) {
        for (index, event) in Fixture.busy.enumerated() { session.ingest(event, at: .milliseconds(100 * index)) }
        let snapshot = ResyncTests.snapshot
        session.ingest(
            ManagerSnapshot(flows: snapshot.flows, lock: snapshot.lock, undoable: [Fixture.importBooks]), missed: 3,
            at: Duration.seconds(5))
    }

    private static func session() -> DashboardSession {
        DashboardSession(scenarioName: "test", theme: .fallback, themes: ThemeCatalog(directories: []))
    }
}
