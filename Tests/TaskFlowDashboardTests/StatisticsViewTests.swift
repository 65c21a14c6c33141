@testable import DashboardKit
import TaskFlow
import TaskFlowTestSupport
import Testing

/// Numbers over time on screen: sparklines drawn from counts, the header's per-second
/// sparklines, a flow title's percentiles in the detail pane, lock waits in the lock panel and
/// a job title's runs in the job's detail, rendered into the memory grid.
@Suite("View: sparklines and run statistics")
struct StatisticsViewTests {
    @Test func aSparklineScalesCountsToTheLargestAndKeepsZeroOnTheBaseline() {
        #expect(Sparkline.render([0, 1, 2, 4, 8], glyphs: .unicode) == "▁▂▃▅█")
        #expect(Sparkline.render([0, 1, 2, 4, 8], glyphs: .ascii) == "_.:=#")
        #expect(Sparkline.render([1, 100], glyphs: .unicode) == "▂█", "one run among a hundred still rises")
        #expect(Sparkline.render([0, 0, 0], glyphs: .unicode) == "▁▁▁")
        #expect(Sparkline.render([], glyphs: .unicode).isEmpty)
    }

    /// Three runs of "Import books" (1 s, 2 s, 3 s) ended, a fourth is running and selected;
    /// #5 waited 2 s for the lock, the others entered at once.
    static func modelAfterRuns() -> DashboardModel {
        var model = DashboardModel(scenario: "stats")
        for (index, seconds) in [1, 2, 3].enumerated() {
            let id = index + 1, start = Duration.seconds(10 * index)
            let info = Fixture.info(id, "Import books")
            _ = model.apply(.flowQueued(info), at: start)
            _ = model.apply(Fixture.lock(info, .admitted, .write(FlowID(id)), waiting: 0), at: start)
            _ = model.apply(.statusChanged(FlowID(id), .running), at: start)
            _ = model.apply(.statusChanged(FlowID(id), .completed), at: start + .seconds(seconds))
            _ = model.apply(Fixture.lock(info, .released, .idle, waiting: 0), at: start + .seconds(seconds))
        }
        let running = Fixture.info(4, "Import books"), waiting = Fixture.info(5, "Build report", .read)
        _ = model.apply(.flowQueued(running), at: .seconds(30))
        _ = model.apply(Fixture.lock(running, .admitted, .write(FlowID(4)), waiting: 0), at: .seconds(30))
        _ = model.apply(.statusChanged(FlowID(4), .running), at: .seconds(30))
        _ = model.apply(.flowQueued(waiting), at: .seconds(30))
        _ = model.apply(Fixture.lock(waiting, .enqueued, .write(FlowID(4)), waiting: 1), at: .seconds(30))
        _ = model.apply(.stepStarted(FlowID(4), Fixture.step(1, "Read file", .main)), at: .seconds(30))
        _ = model.apply(.statusChanged(FlowID(4), .completed), at: .seconds(32))
        _ = model.apply(Fixture.lock(running, .released, .idle, waiting: 1), at: .seconds(32))
        _ = model.apply(Fixture.lock(waiting, .admitted, .read(count: 1), waiting: 0), at: .seconds(32))
        _ = model.apply(.statusChanged(FlowID(5), .running), at: .seconds(32))
        let next = Fixture.info(6, "Import books")
        _ = model.apply(.flowQueued(next), at: .seconds(33))
        _ = model.apply(.statusChanged(FlowID(6), .running), at: .seconds(33))
        _ = model.apply(.stepStarted(FlowID(6), Fixture.step(1, "Read file", .main)), at: .seconds(33))
        _ = model.handle(.end)
        model.advance(to: .seconds(34))
        return model
    }

    @Test func theDetailPaneShowsTheTitlesPercentilesAndSpreadUnderTheSteps() {
        let grid = DashboardView(glyphs: .unicode).render(Self.modelAfterRuns(), size: GridSize(width: 80, height: 24))
        let lines = grid.text.split(separator: "\n").map(String.init)
        #expect(lines[8].hasPrefix("┌─ #6 Import books (write) — running"))
        #expect(lines[9].hasPrefix("│fg Read file"), "the step tree stays on top")
        // Runs of 1 s, 2 s, 3 s and 2 s: p50 2 s, p90 and p99 the longest.
        #expect(lines[15].hasPrefix("│past runs 4  p50 2.0s  p90 3.0s  p99 3.0s"), "\(lines[15])")
        #expect(lines[16].hasPrefix("│spread    1.0s ▅▁"), "\(lines[16])")
        #expect(lines[16].contains("█") && lines[16].contains(" 3.0s"))
        // The lock panel's bottom row: five entries, four at once, one after 2 s.
        #expect(lines[16].contains("│waits 5  p50 0ms  p99 2.0s"), "\(lines[16])")
    }

    @Test func withoutPastRunsTheDetailPaneIsTheStepTreeAlone() {
        var model = DashboardModel(scenario: "stats")
        _ = model.apply(.flowQueued(Fixture.info(1, "Fresh")), at: .zero)
        _ = model.apply(.statusChanged(FlowID(1), .running), at: .zero)
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 24)).text
        #expect(!text.contains("past runs") && !text.contains("waits"))
    }

    @Test func theHeaderDrawsCompletionsAndFailuresPerSecondWhenThereIsRoom() {
        var model = DashboardModel(scenario: "stats")
        for id in 1...3 {
            RunStatisticsTests.run(id, "A", from: .seconds(30), for: .milliseconds(100), into: &model)
        }
        RunStatisticsTests.run(4, "A", from: .seconds(31), for: .milliseconds(100), end: .failed(Boom()), into: &model)
        RunStatisticsTests.run(5, "A", from: .seconds(32), for: .milliseconds(100), into: &model)
        model.advance(to: .seconds(33))
        let wide = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 140, height: 30))
        let header = String(wide.text.prefix { $0 != "\n" })
        // The newest second (33) last: 3 completions at 30 s, 1 at 32 s; a failure at 31 s.
        // The newest second (33) last: 3 completions at 30 s, 1 at 32 s; a failure at 31 s.
        #expect(header.contains(" flows ▁▁▁▁") && header.contains("▁█▁▄▁ fail ▁▁▁▁"), "\(header)")
        #expect(header.hasSuffix("▁█▁▁"), "the newest second at the right edge: \(header)")
        let failures = header.firstRange(of: " fail ").map { header.distance(from: header.startIndex, to: $0.upperBound) } ?? 0
        #expect(wide[failures, 0].role == .statusFailed)
        #expect(wide[failures - 7, 0].role == .statusCompleted)
        // At 80 columns the counts keep their room: no sparkline.
        let narrow = DashboardView(glyphs: .ascii).render(model, size: GridSize(width: 80, height: 24)).text
        #expect(!narrow.prefix { $0 != "\n" }.contains("flows"))
    }

    @Test func theJobDetailShowsItsTitlesPastRuns() {
        var model = DashboardModel(scenario: "jobs")
        model.add(QueuesTab(queues: [QueuesViewTests.downloads]), showing: true)
        let events: [(Duration, JobEvent)] = [
            (.zero, .added(QueuesViewTests.info(1, "Fetch"))), (.zero, .started(JobID(1), attempt: 1)),
            (.milliseconds(250), .finished(JobID(1), .succeeded)),
            (.seconds(1), .added(QueuesViewTests.info(2, "Fetch"))), (.seconds(1), .started(JobID(2), attempt: 1)),
        ]
        for (time, event) in events { model.apply(event, at: time) }
        _ = model.handle(.down)
        model.advance(to: .seconds(2))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 160, height: 40)).text
        #expect(text.contains("past       runs 1  p50 250ms  p90 250ms  p99 250ms"), "\(text)")
        let header = text.prefix { $0 != "\n" }
        #expect(header.contains(" jobs ▁") && header.contains(" flows ▁"), "the header has a jobs sparkline beside the flows'")
    }

    /// The store's runs of a kind, as this process's workers reported them: the stored job's
    /// detail shows them; a kind never run shows none.
    @Test func aStoredJobsDetailShowsItsKindsPastRuns() {
        var model = JobsViewModelTests.model()
        for milliseconds in [100, 200, 300] {
            model.storeRan(StoredJobRun(kind: "send-email", duration: .milliseconds(milliseconds)))
        }
        model.storeRan(StoredJobRun(kind: "resize-image", duration: .seconds(5)))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 160, height: 40)).text
        #expect(text.contains("past       runs 3  p50 200ms  p90 300ms  p99 300ms"), "\(text)")
        #expect(text.contains("spread     100ms ") && !text.contains("5.0s"), "only its own kind's runs\n\(text)")
    }

    /// Three runs of the step "Copy" took 1, 2 and 3 s: the fourth, running, is shown beside
    /// its title's median, so a slow one stands out; a step never run before shows none.
    @Test func eachStepOfTheDetailPaneShowsItsTitlesMedianRun() {
        var model = DashboardModel(scenario: "steps")
        for (index, seconds) in [1, 2, 3, 0].enumerated() {
            let id = FlowID(index + 1), start = Duration.seconds(10 * index)
            _ = model.apply(.flowQueued(Fixture.info(index + 1, "Backup")), at: start)
            _ = model.apply(.statusChanged(id, .running), at: start)
            _ = model.apply(.stepStarted(id, Fixture.step(1, "Copy")), at: start)
            guard seconds > 0 else { continue }
            _ = model.apply(.stepFinished(id, StepID(1), .completed), at: start + .seconds(seconds))
            _ = model.apply(.statusChanged(id, .completed), at: start + .seconds(seconds))
        }
        _ = model.apply(.stepStarted(FlowID(4), Fixture.step(2, "Verify", parent: 1)), at: .seconds(31))
        _ = model.handle(.end)
        model.advance(to: .seconds(35))
        let lines = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text.split(separator: "\n")
        let copy = lines.first { $0.contains("bg Copy") }, verify = lines.first { $0.contains("bg Verify") }
        #expect(copy?.contains("running") == true && copy?.contains("5.0s") == true && copy?.contains("p50 2.0s") == true, "\(lines)")
        #expect(verify != nil && verify?.contains("p50") == false, "never run before: \(lines)")
        let narrow = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 24)).text.split(separator: "\n")
        let narrowCopy = narrow.first { $0.contains("bg Copy") }
        #expect(narrowCopy != nil && narrowCopy?.contains("p50") == false, "a narrow pane keeps the titles' room: \(narrow)")
    }
}
