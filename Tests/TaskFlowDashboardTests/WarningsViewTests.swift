@testable import DashboardKit
import Foundation
import TaskFlow
import Testing

/// What a user sees of the warnings: the header's count and the panel beside the detail pane,
/// rendered into the memory grid.
@Suite("View: warnings")
struct WarningsViewTests {
    /// The busy fixture a minute later: #3's step "batch 2" has been silent past the limit.
    static func stalled() -> DashboardModel {
        var model = Fixture.model(Fixture.busy)
        model.advance(to: .seconds(70))
        return model
    }

    static func lines(_ grid: CellGrid) -> [String] {
        grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func theHeaderCountsTheWarningsInTheWarningRole() throws {
        let grid = DashboardView(glyphs: .unicode).render(Self.stalled(), size: GridSize(width: 100, height: 30))
        let header = try #require(Self.lines(grid).first)
        #expect(header.hasPrefix(" ⚠ 1  TaskFlow · test"), "\(header)")
        #expect(grid[1, 0].role == .logWarning)
        let ascii = DashboardView(glyphs: .ascii).render(Self.stalled(), size: GridSize(width: 100, height: 30))
        #expect(Self.lines(ascii).first?.hasPrefix(" ! 1  TaskFlow | test") == true, "ASCII has no ⚠")
    }

    @Test func theSidePaneShowsTheLockAboveTheWarningsAndTheRowsTheyName() {
        let lines = Self.lines(DashboardView(glyphs: .unicode).render(Self.stalled(), size: GridSize(width: 100, height: 30)))
        let lock = lines.firstIndex { $0.contains("┌─ Lock ") }
        let warnings = lines.firstIndex { $0.contains("┌─ Warnings (1) ") }
        #expect(lock != nil && warnings != nil && (lock ?? 0) < (warnings ?? 0), "the lock on top, the warnings below")
        #expect(lines.contains { $0.contains("│⚠ step without progress") })
        #expect(lines.contains { $0.contains("│  #3 \"Migrate archive\": batch 2 1m0") }, "cut to the pane's width")
        #expect(lines.contains { $0.contains("mode  WRITE") }, "the lock panel still says who holds it")
    }

    @Test func atTheMinimumSizeTheWarningsTakeTheWholeSidePane() {
        let lines = Self.lines(DashboardView(glyphs: .unicode).render(Self.stalled(), size: DashboardLayout.minimum))
        #expect(lines.contains { $0.contains("┌─ Warnings (1) ") })
        #expect(!lines.contains { $0.contains("┌─ Lock ") }, "too short for both")
        #expect(lines.contains { $0.contains("│⚠ step without") } && lines.contains { $0.contains("│  #3 \"Migrat") })
    }

    @Test func withoutWarningsNothingChanges() {
        let model = Fixture.model(Fixture.busy)
        #expect(model.warnings.isEmpty)
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text
        #expect(!text.contains("Warnings") && !text.contains("⚠") && text.contains("┌─ Lock "))
    }

    @Test func theJobsViewsShowTheirWarningsBesideTheirOwnSidePanel() {
        var model = JobsViewModelTests.model()
        let process = WorkerProcessRow(
            host: "batch-7", pid: 91, workers: 16, runningJobs: 0, lease: .seconds(30),
            lastHeartbeat: JobsViewModelTests.listedAt - 40, isThisStore: false)
        model.updateStore(StoreListing(rows: [], counts: [:], processes: [process]), listedAt: JobsViewModelTests.listedAt, time: .seconds(2))
        let lines = Self.lines(DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 40)))
        #expect(lines.first?.hasPrefix(" ⚠ 1 ") == true)
        #expect(lines.contains { $0.contains("┌─ Worker processes (1) ") })
        #expect(lines.contains { $0.contains("│⚠ worker process silent") })
        #expect(lines.contains { $0.contains("│  batch-7:91 silent 40.0s") })
    }

    @Test func moreRowsThanFitAreCountedAndEachWarningKeepsALine() {
        var model = DashboardModel(scenario: "many")
        for id in 1...8 {
            let flow = FlowID(id)
            _ = model.apply(.flowQueued(Fixture.info(id, "Flow \(id)")), at: .zero)
            _ = model.apply(.statusChanged(flow, .running), at: .zero)
            _ = model.apply(.stepStarted(flow, Fixture.step(1, "Wait \(id)")), at: .seconds(id))
        }
        _ = model.apply(.undoExpired(FlowID(99)), at: .seconds(9))
        model.advance(to: .seconds(100))
        #expect(model.warnings.first?.count == 8 && model.warnings.first?.rows.count == DashboardWarning.namedRows)
        #expect(model.warnings.first?.text.hasSuffix("(+3 more)") == true)
        let tall = Self.lines(DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 60)))
        #expect(tall.contains { $0.contains("│  +3 more") })
        let short = Self.lines(DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 30)))
        #expect(short.contains { $0.contains("│⚠ 8 steps without progress: #1 \"Flow 1\"") }, "a line each, rows inline")
        #expect(short.contains { $0.contains("│⚠ undo history full: #99 and older") })
    }
}
