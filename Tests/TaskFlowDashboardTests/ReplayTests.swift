@testable import DashboardKit
import Foundation
import TaskFlow
import TaskFlowTestSupport
import Testing

/// A replay on a session, driven by keys and by a test clock: the time bar's keys move the
/// position and the screens follow; seeking back rebuilds the model; keys that would act on
/// the program are refused.
@Suite("Replay: time controls on a driven clock")
@MainActor
struct ReplayTests {
    /// A recording: a snapshot, then "Import books" queued and running at 1 s, "Build report"
    /// queued at 5 s, the import done at 12 s, the report running at 20 s and done at 30 s.
    private static let entries: [ReplayEntry] = [
        ReplayEntry(time: .milliseconds(5), content: .snapshot(
            ManagerSnapshot(flows: [], lock: LockSnapshot(mode: .idle, holders: [], queue: []), undoable: []), queues: nil)),
        ReplayEntry(time: .seconds(1), content: .flow(.flowQueued(Fixture.importBooks))),
        ReplayEntry(time: .seconds(1), content: .flow(.statusChanged(FlowID(1), .running))),
        ReplayEntry(time: .seconds(5), content: .flow(.flowQueued(Fixture.report))),
        ReplayEntry(time: .seconds(12), content: .flow(.statusChanged(FlowID(1), .completed))),
        ReplayEntry(time: .seconds(20), content: .flow(.statusChanged(FlowID(2), .running))),
        ReplayEntry(time: .seconds(30), content: .flow(.statusChanged(FlowID(2), .completed))),
    ]

    private func replay(speed: Double = 1) -> (DashboardSession, ReplayPlayer, TestClock) {
        let session = DashboardSession(scenarioName: "replay", theme: .fallback, themes: ThemeCatalog(directories: []))
        session.resize(to: GridSize(width: 120, height: 40))
        let clock = TestClock()
        let player = ReplayPlayer(entries: Self.entries, session: session, clock: clock, speed: speed)
        player.start()
        return (session, player, clock)
    }

    private func titles(_ session: DashboardSession) -> [String] {
        session.model.live.flows.map(\.info.title)
    }

    private func phase(_ title: String, _ session: DashboardSession) -> FlowPhase? {
        session.model.live.flows.first { $0.info.title == title }?.phase
    }

    @Test func theArrowsStepFromEventToEventAndBackRebuildingTheModel() {
        let (session, player, _) = replay()
        player.handle(.character(" "))
        #expect(session.model.replay?.paused == true)
        player.handle(.right)  // the snapshot at 5 ms
        player.handle(.right)  // 1 s: both events due then
        #expect(session.elapsed == .seconds(1) && session.model.replay?.played == 3)
        #expect(titles(session) == ["Import books"] && phase("Import books", session) == .running)
        player.handle(.right)
        player.handle(.right)
        #expect(session.elapsed == .seconds(12) && phase("Import books", session) == .completed)
        #expect(titles(session) == ["Import books", "Build report"])
        player.handle(.left)
        #expect(session.elapsed == .seconds(5) && phase("Import books", session) == .running, "the completion is undone")
        player.handle(.left)
        #expect(session.elapsed == .seconds(1) && titles(session) == ["Import books"], "the report is gone again")
        #expect(session.model.replay?.played == 3)
    }

    @Test func bracketsJumpTenSecondsAndHomeAndEndGoToTheEnds() {
        let (session, player, _) = replay()
        player.handle(.character(" "))
        player.handle(.character("]"))
        #expect(session.elapsed == .seconds(10) && titles(session) == ["Import books", "Build report"])
        player.handle(.character("]"))
        player.handle(.character("]"))
        #expect(session.elapsed == .seconds(30) && phase("Build report", session) == .completed, "at most the end")
        player.handle(.character("["))
        #expect(session.elapsed == .seconds(20) && phase("Build report", session) == .running)
        player.handle(.home)
        #expect(session.elapsed == .zero && titles(session).isEmpty && session.model.replay?.played == 0)
        player.handle(.end)
        #expect(session.elapsed == .seconds(30) && session.model.replay?.played == Self.entries.count)
    }

    @Test func playbackFollowsTheDrivenClockAtItsSpeed() async {
        let (session, player, clock) = replay(speed: 2)
        #expect(titles(session).isEmpty)
        clock.advance(by: .milliseconds(2_600))  // 5.2 s of the recording at twice the speed
        #expect(await eventually { session.model.replay?.played == 4 }, "played up to the report's arrival")
        #expect(titles(session) == ["Import books", "Build report"] && session.elapsed == .milliseconds(5_200))
        player.handle(.character("-"))
        #expect(session.model.replay?.speed == 1)
        clock.advance(by: .seconds(7))  // 12.2 s
        #expect(await eventually { phase("Import books", session) == .completed })
        player.handle(.character(" "))
        clock.advance(by: .seconds(60))
        #expect(session.elapsed == .milliseconds(12_200), "paused: the position stays")
        player.handle(.character(" "))
        clock.advance(by: .seconds(60))
        #expect(await eventually { session.model.replay?.played == Self.entries.count })
        #expect(session.model.replay?.paused == true && session.elapsed == .seconds(30), "paused at the end")
        player.stop()
    }

    @Test func speedKeysDoubleAndHalveWithinBounds() {
        let (session, player, _) = replay()
        for _ in 0..<10 { player.handle(.character("+")) }
        #expect(session.model.replay?.speed == ReplayTimeline.speeds.upperBound)
        for _ in 0..<20 { player.handle(.character("-")) }
        #expect(session.model.replay?.speed == ReplayTimeline.speeds.lowerBound)
        player.stop()
    }

    @Test func keysThatWouldActOnTheProgramSaySoAndQuitLeavesAtOnce() {
        let (session, player, _) = replay()
        player.handle(.character(" "))
        player.handle(.character("]"))  // 10 s: the import running
        player.handle(.character("c"))
        #expect(session.model.notice == ReplayPlayer.readOnlyNotice)
        player.handle(.character("C"))
        #expect(session.model.notice == ReplayPlayer.readOnlyNotice)
        #expect(phase("Import books", session) == .running)
        player.handle(.character("q"))
        #expect(session.exitRequest == .quit(leftover: []), "a replay rolls nothing back")
    }

    @Test func aFilterTakesTheReplaysKeysAsText() {
        let (session, player, _) = replay()
        player.handle(.character(" "))
        player.handle(.character("/"))
        player.handle(.character(" "))
        player.handle(.character("]"))
        #expect(session.model.flows.filter == " ]")
        #expect(session.model.replay?.paused == true && session.elapsed == .zero)
    }

    @Test func theHelpListsTheReplaysKeysInPlaceOfTheViewsHomeAndEnd() {
        let (session, _, _) = replay()
        let help = session.model.keyHelp
        #expect(Array(help.prefix(3)) == ReplayKeyMap.rows.map(\.help))
        #expect(!help.contains { $0.keys == "Home / End" || $0.keys == "p" }, "the rows of the keys taken over are left out")
        // The overlay shows every key at the minimum screen size (its border takes two rows).
        #expect(help.count <= DashboardLayout.minimum.height - 2)
    }

    @Test func theTimeBarShowsPositionSpeedAndEvents() {
        let (session, player, _) = replay()
        player.handle(.character(" "))
        player.handle(.character("+"))
        player.handle(.character("]"))
        let screen = session.frame(size: GridSize(width: 120, height: 40), glyphs: .ascii).text
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let bar = String(lines[lines.count - 2])
        #expect(bar.contains("replay  paused") && bar.contains("x2  10.0s / 30.0s") && bar.contains("event 4/7"), "\(bar)")
        #expect(bar.contains("#") && bar.contains("."), "a bar a third full: \(bar)")
    }
}

/// ``DashboardSession/rebuild(_:)``: what a replay seeking back relies on.
@Suite("Session: rebuilding the model")
@MainActor
struct SessionRebuildTests {
    @Test func rebuildForgetsEverythingAndKeepsTheSizeAndTheViewShown() {
        let session = DashboardSession(scenarioName: "demo", theme: .fallback, themes: ThemeCatalog(directories: []))
        session.resize(to: GridSize(width: 120, height: 40))
        session.adopt(
            ManagerSnapshot(flows: [], lock: LockSnapshot(mode: .idle, holders: [], queue: []), undoable: []),
            queues: [QueueDescription(title: "mail", maxConcurrent: 2)], at: .zero)
        for (index, event) in Fixture.busy.enumerated() { session.ingest(event, at: .milliseconds(100 * index)) }
        session.handle(.tab)
        #expect(session.model.shownTab is QueuesTab)
        let fresh = DashboardSession(scenarioName: "demo", theme: .fallback, themes: ThemeCatalog(directories: []))
        fresh.resize(to: GridSize(width: 120, height: 40))
        for event in Fixture.busy.prefix(3) { fresh.ingest(event, at: .zero) }

        session.rebuild {
            session.adopt(
                ManagerSnapshot(flows: [], lock: LockSnapshot(mode: .idle, holders: [], queue: []), undoable: []),
                queues: [QueueDescription(title: "mail", maxConcurrent: 2)], at: .zero)
            for event in Fixture.busy.prefix(3) { session.ingest(event, at: .zero) }
        }
        #expect(session.model.live.flows.map(\.info.title) == fresh.model.live.flows.map(\.info.title))
        #expect(session.model.live.log.entries == fresh.model.live.log.entries, "the log starts again too")
        #expect(session.model.now == .zero)
        #expect(session.model.shownTab is QueuesTab, "the queues view stays shown")
        #expect(session.model.panes == fresh.model.panes)
    }
}
