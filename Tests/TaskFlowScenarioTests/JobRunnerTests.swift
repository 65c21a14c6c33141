import TaskFlow
import TaskFlowTestSupport
import Testing
@testable import TaskFlowScenario

/// Scenario jobs played on real queues, judged by their events and final statuses.
@Suite struct JobRunnerTests {
    /// The events of a queue, in order: "start Title #attempt", "retry Title in 50ms", "end Title status".
    private final class QueueLog: Sendable {
        let log: StreamLog<JobEvent>
        init(_ queue: JobQueue) { log = StreamLog(queue.events) }

        func lines(titles: [JobID: String]) -> [String] {
            log.events.compactMap { event in
                switch event {
                case .added(let info): "add \(info.title)"
                case .started(let id, let attempt): "start \(titles[id] ?? "?") #\(attempt)"
                case .attemptFailed(let id, _, _, _, let delay): "retry \(titles[id] ?? "?") in \(delay)"
                case .finished(let id, let status): "end \(titles[id] ?? "?") \(status)"
                case .progress, .paused: nil
                }
            }
        }

        var titles: [JobID: String] {
            Dictionary(log.events.compactMap { if case .added(let info) = $0 { (info.id, info.title) } else { nil } },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    @Test func theJobsDemoShowsPrioritiesDependenciesRetriesAndBlockingWork() async throws {
        let scenario = try Scenario.load(contentsOf: Paths.demo.appending(path: "jobs.toml"))
        let runner = ScenarioRunner(scenario: scenario, options: RunOptions(speed: 10))
        let logs = runner.jobs.queues.map(QueueLog.init)
        _ = await runner.start().finished()
        let titles = logs.reduce(into: [JobID: String]()) { $0.merge($1.titles) { first, _ in first } }
        let (downloads, thumbnails, disk) = (logs[0].lines(titles: titles), logs[1].lines(titles: titles), logs[2].lines(titles: titles))

        func status(_ title: String) -> JobStatus? { runner.jobs.handle(titled: title)?.status }
        for title in ["Fetch catalog", "Fetch photos", "Fetch videos", "Fetch avatar", "Sync with server", "Resize photos",
                      "Publish gallery", "Write index"] {
            #expect(status(title) == .succeeded, "\(title)")
        }
        #expect(status("Fetch licence") == .failed("'Fetch licence' failed on purpose at 50%"))
        #expect(status("Apply licence") == .failed("'Apply licence' did not run: its dependency 'Fetch licence' failed"))
        #expect(status("Notify the team") == .failed("'Notify the team' did not run: its dependency 'Apply licence' failed"))
        #expect(!thumbnails.contains("start Apply licence #1") && !thumbnails.contains("start Notify the team #1"))

        // Added after the low-priority fetches, the high-priority one starts before them.
        let start = { (title: String) in downloads.firstIndex(of: "start \(title) #1") ?? .max }
        #expect(start("Fetch avatar") < start("Fetch photos") && start("Fetch avatar") < start("Fetch videos"))
        // Fails twice, then succeeds, after the exponential backoff's exact delays (jitter 0).
        #expect(downloads.filter { $0.hasPrefix("retry Sync") || $0.hasPrefix("start Sync") } == [
            "start Sync with server #1", "retry Sync with server in 0.05 seconds", "start Sync with server #2",
            "retry Sync with server in 0.1 seconds", "start Sync with server #3",
        ])
        // The chain runs in order; the blocking queue runs its four jobs at once on its threads.
        #expect(thumbnails.firstIndex(of: "end Resize photos succeeded") ?? .max < thumbnails.firstIndex(of: "start Publish gallery #1") ?? 0)
        let firstEnd = disk.firstIndex { $0.hasPrefix("end ") } ?? 0
        #expect((1...4).allSatisfy { (disk.firstIndex(of: "start Compact segment \($0) #1") ?? .max) < firstEnd })
        #expect(disk.last == "end Write index succeeded")
    }

    /// A: fails its first attempt; B after A; C after B; D alone.
    private static let chain = """
        name = "Chain"
        [[queue]]
        title = "Q"
        max_concurrent = 4
        [[job]]
        title = "A"
        queue = "Q"
        fail_times = 1
        [[job]]
        title = "B"
        queue = "Q"
        after = ["A"]
        [[job]]
        title = "C"
        queue = "Q"
        after = ["B"]
        [[job]]
        title = "D"
        queue = "Q"
        """

    @Test func aRetryRunsTheJobAgainWithTheJobsItSkipped() async throws {
        let runner = ScenarioRunner(scenario: try Scenario.parse(Self.chain), options: RunOptions(speed: 100))
        _ = await runner.start().finished()
        let jobs = runner.jobs
        let first = try #require(jobs.handle(titled: "A"))
        #expect(["A", "B", "C"].map { jobs.handle(titled: $0)?.status.isFinished == true && jobs.handle(titled: $0)?.status != .succeeded } == [true, true, true])

        let again = try jobs.retry(first.id)
        let handles = ["A", "B", "C"].compactMap(jobs.handle(titled:))
        #expect(again == handles.map(\.id) && !again.contains(first.id))
        for handle in handles { try await handle.value }
        // `fail_times` counts the job's attempts across its runs: the retry is attempt 2.
        #expect(handles.map(\.status) == [.succeeded, .succeeded, .succeeded])

        #expect(throws: JobRetryRefusal.superseded("A")) { try jobs.retry(first.id) }
        let done = try #require(jobs.handle(titled: "D"))
        #expect(throws: JobRetryRefusal.notFailed("D", .succeeded)) { try jobs.retry(done.id) }
        #expect(throws: JobRetryRefusal.unknown(JobID(.max))) { try jobs.retry(JobID(.max)) }
    }

    @Test func aJobIsAddedAtItsStartButNeverBeforeTheJobsItWaitsFor() {
        let jobs = [
            JobSpec(title: "late", queue: "Q", start: .seconds(2)),
            JobSpec(title: "early", queue: "Q", start: .seconds(1), after: ["late"]),
            JobSpec(title: "first", queue: "Q"),
        ]
        let schedule = ScenarioJobs.addingSchedule(jobs, graph: JobGraph(jobs))
        #expect(schedule.map(\.job) == [2, 0, 1])
        #expect(schedule.map(\.at) == [.zero, .seconds(2), .seconds(2)])
    }

    @Test func aChainOfAHundredThousandJobsIsOrderedWithoutRecursion() {
        let count = 100_000
        // Written last-first, so every job's dependency comes later in the file.
        let jobs = (0..<count).map { index in
            JobSpec(title: "\(index)", queue: "Q", after: index == count - 1 ? [] : ["\(index + 1)"])
        }
        let graph = JobGraph(jobs)
        #expect(graph.topologicalOrder == Array((0..<count).reversed()))
        #expect(graph.cycle == nil)
    }
}
