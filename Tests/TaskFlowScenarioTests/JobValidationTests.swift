import TaskFlow
import Testing
@testable import TaskFlowScenario

/// `[[queue]]` and `[[job]]` tables: each mistake reported once, at the key or value to fix.
@Suite struct JobValidationTests {
    /// A scenario of jobs only: queues "Downloads" (lines 2–4) and "Disk" (5–7), then `jobs`
    /// from line 8.
    private func jobs(_ jobs: String) -> String {
        """
        name = "Jobs"
        [[queue]]
        title = "Downloads"
        max_concurrent = 2
        [[queue]]
        title = "Disk"
        threads = 4
        \(jobs)
        """
    }

    @Test func aFullJobTableReadsIntoItsSpec() throws {
        let scenario = try Scenario.parse(jobs("""
            [[job]]
            title = "Fetch"
            queue = "Downloads"
            [[job]]
            title = "Sync"
            queue = "Downloads"
            priority = "high"
            start = "1s"
            duration = "1.5s"
            after = ["Fetch"]
            fail_times = 2
            retry = { max_attempts = 4, backoff = "exponential", initial = "500ms", multiplier = 3, cap = "4s", jitter = 0.25 }
            """))
        #expect(scenario.flows.isEmpty)
        #expect(scenario.queues == [
            QueueSpec(title: "Downloads", maxConcurrent: 2), QueueSpec(title: "Disk", maxConcurrent: 4, isBlocking: true),
        ])
        #expect(scenario.jobs == [
            JobSpec(title: "Fetch", queue: "Downloads"),
            JobSpec(
                title: "Sync", queue: "Downloads", priority: .high, start: .seconds(1), duration: .milliseconds(1500),
                after: ["Fetch"],
                retry: RetrySpec(
                    maxAttempts: 4, backoff: .exponential(initial: .milliseconds(500), multiplier: 3, cap: .seconds(4)), jitter: 0.25),
                failTimes: 2),
        ])
        let policy = scenario.jobs[1].retry.policy(speed: 2)
        #expect(policy.maxAttempts == 4)
        #expect([1, 2, 3].map(policy.delay(forRetry:)) == [.milliseconds(250), .milliseconds(750), .seconds(2)])
    }

    @Test func anUnknownQueueIsReportedAtItsValueWithTheQueuesThereAre() throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Uploads\"")))
        #expect(found.position == SourcePosition(line: 10, column: 9))
        #expect(found.message == "no queue is titled 'Uploads'; the queues are: 'Disk', 'Downloads'")
    }

    @Test func aJobWithoutAnyQueueTableSaysToAddOne() throws {
        let found = try #require(problem(in: "name = \"x\"\n[[job]]\ntitle = \"A\"\nqueue = \"Q\""))
        #expect(found.position == SourcePosition(line: 4, column: 9))
        #expect(found.message == "no queue is titled 'Q'; the scenario has no [[queue]] tables: add one titled 'Q'")
    }

    @Test func anUnknownDependencyIsReportedAtItsElement() throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Disk\"\nafter = [\"B\", \"Nope\"]\n[[job]]\ntitle = \"B\"\nqueue = \"Disk\"")))
        #expect(found.position == SourcePosition(line: 11, column: 15))
        #expect(found.message == "job 'A' waits for 'Nope', but no job has that title")
    }

    @Test func aCycleIsReportedOnceAtItsFirstJobNamingEveryJobOnIt() throws {
        let text = jobs("""
            [[job]]
            title = "Free"
            queue = "Disk"
            [[job]]
            title = "A"
            queue = "Disk"
            after = ["Free", "C"]
            [[job]]
            title = "B"
            queue = "Disk"
            after = ["A"]
            [[job]]
            title = "C"
            queue = "Disk"
            after = ["B"]
            """)
        let found = try #require(problem(in: text))
        #expect(found.position == SourcePosition(line: 14, column: 9))
        #expect(found.message == "job 'A' waits for itself: 'A' → 'C' → 'B' → 'A'")
    }

    @Test func aJobAfterItselfIsACycle() throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Disk\"\nafter = [\"A\"]")))
        #expect(found.message == "job 'A' waits for itself: 'A' → 'A'")
    }

    @Test func titlesMustBeUniqueBecauseAfterNamesJobsByTitle() throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Disk\"\n[[job]]\ntitle = \"A\"\nqueue = \"Disk\"")))
        #expect(found.position == SourcePosition(line: 12, column: 9))
        #expect(found.message == "another job is titled 'A' already: job titles must be unique")
        let queue = try #require(problem(in: jobs("[[queue]]\ntitle = \"Disk\"\n[[job]]\ntitle = \"A\"\nqueue = \"Disk\"")))
        #expect(queue.message == "another queue is titled 'Disk' already: queue titles must be unique")
    }

    @Test(arguments: [
        ("max_attempts = 0", "'max_attempts' must be at least 1, not 0"),
        ("backoff = \"linear\", max_attempts = 2", "'backoff' must be \"immediate\", \"constant\" or \"exponential\", not \"linear\""),
        ("max_attempts = 2, backoff = \"constant\"", "'retry' needs 'initial' (the delay before the first retry, with backoff = \"constant\")"),
        ("max_attempts = 2, initial = \"1s\"", "'initial' has no effect with backoff = \"immediate\""),
        ("max_attempts = 2, backoff = \"exponential\", initial = \"1s\", multiplier = 0.5", "'multiplier' must be a number from 1 to 1000, not 0.5"),
        ("max_attempts = 2, backoff = \"constant\", initial = \"1s\", cap = \"2s\"", "'cap' has no effect with backoff = \"constant\""),
        ("max_attempts = 2, backoff = \"constant\", initial = \"1s\", jitter = 2", "'jitter' must be between 0 and 1, not 2.0"),
        ("max_attempts = 2, jitter = 0.5", "'jitter' has no effect with backoff = \"immediate\""),
        ("backoff = \"immediate\"", "'retry' needs 'max_attempts' (how many runs in all, the first included)"),
        ("max_attempts = 2, delay = \"1s\"", "unknown key 'delay' in 'retry'; expected one of: max_attempts, backoff, initial, multiplier, cap, jitter"),
    ])
    func aBadRetryPolicyIsReported(retry: String, message: String) throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Disk\"\nretry = { \(retry) }")))
        #expect(found.position?.line == 11)
        #expect(found.message == message)
    }

    @Test(arguments: [
        ("max_concurrent = 0", "'max_concurrent' must be at least 1, not 0"),
        ("threads = 5000", "'threads' must be at most 1024, not 5000"),
        ("threads = 2\nmax_concurrent = 2", "a blocking queue runs as many jobs at once as it has threads: give 'threads' or 'max_concurrent', not both"),
    ])
    func aBadQueueIsReported(keys: String, message: String) throws {
        let found = try #require(problem(in: "name = \"x\"\n[[queue]]\ntitle = \"Q\"\n\(keys)\n[[job]]\ntitle = \"A\"\nqueue = \"Q\""))
        #expect(found.position?.line == 4)
        #expect(found.message == message)
    }

    @Test(arguments: [
        ("priority = \"urgent\"", "'priority' must be \"low\", \"normal\" or \"high\", not \"urgent\""),
        ("fail_times = 1\nfail_chance = 0.5", "give 'fail_times' or 'fail_chance', not both"),
        ("after = \"B\"", "'after' must be an array of job titles, not a string"),
        ("after = [1]", "each element of 'after' must be a job title (a string), not an integer"),
        ("fail_times = -1", "'fail_times' must be at least 0, not -1"),
    ])
    func aBadJobKeyIsReported(keys: String, message: String) throws {
        let found = try #require(problem(in: jobs("[[job]]\ntitle = \"A\"\nqueue = \"Disk\"\n\(keys)")))
        #expect(found.message == message)
    }

    @Test func emptyJobTablesAreNoScenarioEither() throws {
        let found = try #require(problem(in: "name = \"Nothing\"\njob = []"))
        #expect(found.message == "the scenario has no flows and no jobs: add at least one [[flow]] or [[job]] table")
    }

    @Test func blockingQueuesMayStartAtMostAThousandThreadsInAll() throws {
        let queues = (1...3).map { "[[queue]]\ntitle = \"Q\($0)\"\nthreads = 400" }.joined(separator: "\n")
        let found = try #require(problem(in: "name = \"x\"\n\(queues)\n[[job]]\ntitle = \"A\"\nqueue = \"Q1\""))
        #expect(found.position?.line == 10)
        #expect(found.message == "the blocking queues ask for 1200 threads so far; a scenario may start at most 1024 in all")
    }

    @Test func anUnknownQueueNamesTenQueuesAtMost() throws {
        let queues = (1...12).map { "[[queue]]\ntitle = \"Q\($0)\"" }.joined(separator: "\n")
        let found = try #require(problem(in: "name = \"x\"\n\(queues)\n[[job]]\ntitle = \"A\"\nqueue = \"Nope\""))
        #expect(found.message.hasSuffix("'Q6', 'Q7' and 2 more"))
    }

    @Test func aScenarioNeedsAFlowOrAJob() throws {
        let found = try #require(problem(in: "name = \"Nothing\"\n[[queue]]\ntitle = \"Q\""))
        #expect(found.message == "the scenario needs 'flow' (add at least one [[flow]] or [[job]] table)")
    }
}
