@testable import DashboardKit
import TaskFlow
import Testing

/// The queues view, from queue events and keys to the commands and the screen a user sees.
@Suite("Model and view: the job queues")
struct QueuesViewTests {
    static let downloads = QueueDescription(title: "Downloads", maxConcurrent: 2)
    static let disk = QueueDescription(title: "Disk", maxConcurrent: 4, isBlocking: true)

    static func info(_ id: UInt64, _ title: String, queue: String = "Downloads", priority: JobPriority = .normal,
                     after: [UInt64] = [], attempts: Int = 1) -> JobInfo {
        JobInfo(id: JobID(id), title: title, queue: queue, priority: priority, dependencies: after.map(JobID.init), maxAttempts: attempts)
    }

    /// Downloads: #1 Catalog running at 40 %, #2 Sync retrying (attempt 2/4 in 1.5 s), #3 Photos
    /// low, #4 Avatar high, #5 Resize after Photos, #6 Licence failed; Disk: #7 Compact succeeded.
    static func model() -> DashboardModel {
        var model = DashboardModel(scenario: "jobs")
        model.add(QueuesTab(queues: [downloads, disk]), showing: true)
        let events: [JobEvent] = [
            .added(info(1, "Catalog")), .started(JobID(1), attempt: 1), .progress(JobID(1), 0.4),
            .added(info(2, "Sync", attempts: 4)), .started(JobID(2), attempt: 1),
            .attemptFailed(JobID(2), attempt: 1, maxAttempts: 4, error: "HTTP 503", nextDelay: .milliseconds(1500)),
            .added(info(3, "Photos", priority: .low)), .added(info(4, "Avatar", priority: .high)),
            .added(info(5, "Resize", after: [3])),
            .added(info(6, "Licence")), .finished(JobID(6), .failed("no licence server")),
            .added(info(7, "Compact", queue: "Disk")), .started(JobID(7), attempt: 1), .finished(JobID(7), .succeeded),
        ]
        for event in events { model.apply(event, at: .seconds(1)) }
        return model
    }

    @Test func jobsAreListedRunningThenInStartOrderThenFinished() {
        let board = Self.model().queues?.board
        #expect(board?.jobs(of: "Downloads").map(\.info.title) == ["Catalog", "Sync", "Avatar", "Photos", "Resize", "Licence"])
        #expect(board?.unmet(board?.jobs[JobID(5)] ?? QueuedJobRow(info: Self.info(0, ""))) == ["Photos"])
        #expect(board?.activeCount(of: "Downloads") == 2)
        #expect(board?.lines.first == .queue("Downloads") && board?.lines[7] == .queue("Disk"))
    }

    @Test func theScreenShowsEveryQueueAndWhatEachJobIsDoing() {
        var model = Self.model()
        model.advance(to: .seconds(2))   // a second into the backoff's 1.5 s
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 40)).text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("┌─ Job queues — succeeded 1 — failed 1 — Tab: flows "))
        #expect(lines.contains { $0.contains("Downloads  2/2 running · 3 waiting · limit 2") })
        #expect(lines.contains { $0.contains("#1    Catalog") && $0.contains("normal  running    ████░░░░░░  40%") })
        #expect(lines.contains { $0.contains("#2    Sync") && $0.contains("retrying   next in 500ms · attempt 2/4 · last: HTTP 503") })
        #expect(lines.contains { $0.contains("#4    Avatar") && $0.contains("high    waiting    ready") })
        #expect(lines.contains { $0.contains("#5    Resize") && $0.contains("waiting    after \"Photos\"") })
        #expect(lines.contains { $0.contains("#6    Licence") && $0.contains("failed     no licence server") })
        #expect(lines.contains { $0.contains("Disk  0/4 running · 0 waiting · blocking, 4 threads") })
        #expect(lines.contains { $0.contains("┌─ Queue Downloads   P pause") })
    }

    /// Job ids are never reused either: the id column fits the largest, so #99999 and #100000
    /// are told apart (a fixed six-cell column cut both to `#1000…` and `#9999…`).
    @Test func theIdColumnFitsTheLargestJobId() {
        var model = DashboardModel(scenario: "jobs")
        model.add(QueuesTab(queues: [Self.downloads]), showing: true)
        for id: UInt64 in [99_999, 100_000, 100_001] { model.apply(.added(Self.info(id, "Job \(id)")), at: .seconds(1)) }
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 40)).text
        let lines = text.split(separator: "\n").map(String.init)
        for id in [99_999, 100_000, 100_001] {
            #expect(lines.contains { $0.contains("#\(id) ") && $0.contains(" Job \(id) ") }, "#\(id) whole:\n\(text)")
        }
    }

    @Test func keysCancelRetryAndPauseWhatTheSelectionAllows() {
        var model = Self.model()
        #expect(model.handle(.character("c")).isEmpty && model.notice == "c cancels a job: select one (↑↓)")
        #expect(model.handle(.character("P")) == [.setQueuePaused("Downloads", true)])
        model.apply(.paused(queue: "Downloads", true), at: .seconds(2))
        #expect(model.queues?.board.queue(titled: "Downloads")?.isPaused == true)
        #expect(model.handle(.character("P")) == [.setQueuePaused("Downloads", false)])
        model.apply(.paused(queue: "Downloads", false), at: .seconds(2))

        _ = model.handle(.down)
        #expect(model.queues?.selectedJob?.info.title == "Catalog" && !model.offers(.character("r")))
        #expect(model.handle(.character("r")).isEmpty && model.notice == "\"Catalog\" is running: r retries a failed or cancelled job")
        #expect(model.handle(.character("c")) == [.cancelQueuedJob(JobID(1))])
        #expect(model.handle(.character("P")) == [.setQueuePaused("Downloads", true)], "P acts on the selected job's queue")
        for _ in 0..<5 { _ = model.handle(.down) }
        #expect(model.queues?.selectedJob?.info.title == "Licence" && model.offers(.character("r")))
        #expect(model.handle(.character("r")) == [.retryQueuedJob(JobID(6))])
        #expect(model.handle(.character("c")).isEmpty && model.notice == "\"Licence\" failed already: nothing to cancel")
        #expect(model.handle(.end).isEmpty && model.queues?.selectedJob?.info.title == "Compact")
    }

    @Test func tabGoesThroughEveryViewThatHasSomethingToShow() {
        var model = Self.model()
        model.add(StoreTab(name: "jobs.sqlite"))
        #expect(model.shownTab is QueuesTab && model.nextTabName == "stored jobs")
        _ = model.handle(.tab)
        #expect(model.shownTab is StoreTab)
        _ = model.handle(.tab)
        #expect(model.shownTab is FlowsTab && model.nextTabName == "job queues")
        _ = model.handle(.tab)
        #expect(model.shownTab is QueuesTab)
    }

    @Test func finishedJobsAreKeptUpToALimitWhileTheCountsGoOn() {
        var board = QueueBoard(queues: [Self.downloads])
        let count = QueueBoard.finishedLimit + 50
        for id in 1...UInt64(count) {
            board.apply(.added(Self.info(id, "Job \(id)")), at: .zero)
            board.apply(.finished(JobID(id), .succeeded), at: .seconds(Int64(id)))
        }
        #expect(board.jobs.count == QueueBoard.finishedLimit)
        #expect(board.jobs[JobID(1)] == nil && board.jobs[JobID(UInt64(count))] != nil)
        #expect(board.endedCounts == ["succeeded": count])
        #expect(board.jobs(of: "Downloads").first?.info.title == "Job \(count)", "latest finished first")
    }

    @Test func aJobTheBoardLetGoGivesTheCursorToItsQueue() {
        var model = DashboardModel(scenario: "x")
        model.add(QueuesTab(queues: [Self.downloads]), showing: true)
        model.apply(.added(Self.info(1, "First")), at: .zero)
        _ = model.handle(.down)
        #expect(model.queues?.selectedJob?.info.title == "First")
        for id in 2...UInt64(QueueBoard.finishedLimit + 2) {
            model.apply(.added(Self.info(id, "Job")), at: .zero)
            model.apply(.finished(JobID(id == 2 ? 1 : id), .succeeded), at: .seconds(Int64(id)))
        }
        #expect(model.queues?.selection == .queue("Downloads"))
    }

    @Test func queueEventsReachTheEventLog() {
        let log = Self.model().board.log.entries.map(\.text)
        #expect(log.contains("job 2 \"Sync\" (Downloads): attempt 1/4 failed: HTTP 503; next in 1.5s"))
        #expect(log.contains("job 6 \"Licence\" (Downloads): failed: no licence server"))
        #expect(log.contains("job 7 \"Compact\" (Disk): succeeded"))
    }
}

/// A flow step between two attempts: the flow list counts down to the next one.
@Suite("View: a retried flow step")
struct StepRetryViewTests {
    @Test func theFlowListCountsDownToTheNextAttemptUntilItStarts() {
        var model = DashboardModel(scenario: "retry")
        let flow = Fixture.info(1, "Sync")
        let retry = StepRetry(title: "Push", nextAttempt: 2, maxAttempts: 3, delay: .milliseconds(400), error: "HTTP 503")
        for event: FlowEvent in [
            .flowQueued(flow), .statusChanged(FlowID(1), .running), .stepStarted(FlowID(1), Fixture.step(1, "Push")),
            .stepFinished(FlowID(1), StepID(1), .failed("HTTP 503")), .stepRetrying(FlowID(1), retry),
        ] {
            _ = model.apply(event, at: .seconds(1))
        }
        model.advance(to: .milliseconds(1100))
        let row = {
            DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 30)).text
                .split(separator: "\n").first { $0.hasPrefix("│#1 ") }.map(String.init) ?? ""
        }
        #expect(row().contains("Push: attempt 2/3 in 300ms"))
        #expect(model.board.log.entries.last?.text == "#1 \"Sync\" \"Push\" attempt 2/3 in 400ms")
        _ = model.apply(.stepStarted(FlowID(1), Fixture.step(2, "Push (attempt 2/3)")), at: .milliseconds(1400))
        #expect(!row().contains("attempt 2/3 in") && row().contains("Push (attempt 2/3)"))
    }
}
