import Testing
import TaskFlow
import TaskFlowTestSupport

/// The jobs part of DESIGN.md §4's API contract, written as there, so a change that breaks it
/// fails to compile here first.
@Suite struct JobContractTests {
    struct TransientError: Error {}

    actor API {
        private var calls = 0
        func count() throws -> Int {
            calls += 1
            return calls
        }
    }

    @Test func theContractCompilesAndBehavesAsWritten() async throws {
        let api = API()
        let printed = Recorder<String>()
        let fetch = Job(title: "Fetch count") { job in        // job: JobContext
            job.progress(0.5)                                   // also job.isCancelled, job.attempt (1, 2, ...)
            return try await api.count()
        }
        .retry(3)                                              // Overdrive: up to 3 more runs after a failure
        .onValue { count in printed.record("\(count)") }       // once, with the final value
        .onError { error in printed.record("\(error)") }       // once, with the final error, not per attempt
        let n = try await fetch.run()                          // runs here and now, retries included
        #expect(n == 1 && printed.all == ["1"])

        let policy = RetryPolicy.exponential(maxAttempts: 5, initial: .milliseconds(100), multiplier: 2,
                                             cap: .seconds(1), jitter: 0)
            .retrying(if: { $0 is TransientError })
        #expect(policy.delay(forRetry: 3) == .milliseconds(400))
        let robust = fetch.retry(policy)                       // maxAttempts counts the first run
        #expect(robust.retryPolicy.maxAttempts == 5)

        let both = Job.group(title: "Counts", [fetch, fetch])        // Job<[Int]>: parallel, input order;
        let chain = Job.sequence(title: "In turn", [fetch, fetch])   // first error cancels the rest / stops
        #expect(try await both.run().count == 2)
        #expect(try await chain.run().count == 2)

        let queue = JobQueue(title: "Uploads", maxConcurrent: 3)
        let a = queue.add(fetch)                               // JobHandle<Int>
        let b = queue.add(fetch, priority: .high, after: [a])  // runs once `a` succeeded
        let value = try await b.value
        #expect(try await value > a.value)
        a.cancel()                                             // ended: nothing happens
        queue.pause(); queue.resume()
        _ = JobQueue.background; _ = JobQueue.main
        let disk = JobQueue.blocking(title: "Disk", threads: 8) // own threads for blocking calls
        #expect(disk.maxConcurrent == 8)

        let manager = TaskFlowManager()
        let flow = manager.execute(title: "Upload", access: .write) { flow in
            try await flow.task(title: "Upload", retry: .constant(maxAttempts: 3, delay: .milliseconds(200)),
                                apply: { task in try await upload() }, revert: { task, _ in try await remove() })
        }
        try await flow.value
    }

    func upload() async throws {}
    func remove() async throws {}
}
