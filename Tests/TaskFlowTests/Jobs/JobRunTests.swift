import Testing
import TaskFlow
import TaskFlowTestSupport

/// `Job.run()`: the body here and now, retries as the policy says, handlers once per run.
@Suite struct JobRunTests {
    struct Transient: Error {}

    /// A job whose body fails with `Boom("attempt n")` until attempt `succeedAt` (never if nil).
    func flaky(succeedAt: Int?, attempts: Recorder<Int>) -> Job<String> {
        Job(title: "flaky") { job in
            attempts.record(job.attempt)
            if let succeedAt, job.attempt >= succeedAt { return "ok on \(job.attempt)" }
            throw Boom("attempt \(job.attempt)")
        }
    }

    @Test func aJobIsAReusableValueEachRunRunsTheBodyAgain() async throws {
        let runs = Recorder<Int>()
        let job = Job(title: "count") { job in
            runs.record(job.attempt)
            return 7
        }
        #expect(runs.all.isEmpty, "building a job runs nothing")
        #expect(try await job.run() == 7)
        #expect(try await job.run() == 7)
        #expect(runs.all == [1, 1])
    }

    @Test func retryNAllowsUpToNMoreRunsNumberedFromOne() async throws {
        let attempts = Recorder<Int>()
        #expect(try await flaky(succeedAt: 3, attempts: attempts).retry(3).run() == "ok on 3")
        #expect(attempts.all == [1, 2, 3])

        let always = Recorder<Int>()
        await #expect(throws: Boom("attempt 4")) { try await flaky(succeedAt: nil, attempts: always).retry(3).run() }
        #expect(always.all == [1, 2, 3, 4], "retry(3) is four runs in all, and the last error is thrown")

        let once = Recorder<Int>()
        await #expect(throws: Boom("attempt 1")) { try await flaky(succeedAt: nil, attempts: once).run() }
        #expect(once.all == [1], "without retry a job runs once")
    }

    @Test func handlersRunOnceWithTheFinalValueNotPerAttempt() async throws {
        let values = Recorder<String>()
        let errors = Recorder<String>()
        let job = flaky(succeedAt: 3, attempts: Recorder()).retry(3)
            .onValue { values.record("first \($0)") }
            .onError { errors.record("\($0)") }
            .onValue { values.record("second \($0)") }
        _ = try await job.run()
        #expect(values.all == ["first ok on 3", "second ok on 3"], "handlers compose, in the order attached")
        #expect(errors.all.isEmpty, "failed attempts that were retried call no handler")

        _ = try await job.run()
        #expect(values.all.count == 4, "once per run")
    }

    @Test func errorHandlersRunOnceWithTheFinalError() async throws {
        let values = Recorder<String>()
        let errors = Recorder<String>()
        let job = flaky(succeedAt: nil, attempts: Recorder()).retry(2)
            .onValue { values.record($0) }
            .onError { errors.record("one \($0)") }
            .onError { errors.record("two \($0)") }
        await #expect(throws: Boom("attempt 3")) { try await job.run() }
        #expect(errors.all == ["one Boom(attempt 3)", "two Boom(attempt 3)"])
        #expect(values.all.isEmpty)
    }

    @Test func cancellationErrorNeverRetries() async throws {
        let attempts = Recorder<Int>()
        let job = Job<Int>(title: "gives up") { job in
            attempts.record(job.attempt)
            throw CancellationError()
        }
        await #expect(throws: CancellationError.self) { try await job.retry(5).run() }
        #expect(attempts.all == [1])
    }

    @Test func aPolicyWithConditionsRetriesOnlyTheErrorsItNames() async throws {
        let attempts = Recorder<Int>()
        let job = Job<Int>(title: "permanent") { job in
            attempts.record(job.attempt)
            throw job.attempt == 1 ? Transient() as any Error : Boom("permanent")
        }
        let policy = RetryPolicy.immediate(maxAttempts: 5).retrying(if: { $0 is Transient })
        await #expect(throws: Boom("permanent")) { try await job.retry(policy).run() }
        #expect(attempts.all == [1, 2], "the transient error was retried, the permanent one was not")
    }

    @Test func retriesWaitThePolicysDelay() async throws {
        let attempts = Recorder<Int>()
        let policy = RetryPolicy.exponential(maxAttempts: 3, initial: .milliseconds(30), multiplier: 2, cap: .seconds(1))
        let job = flaky(succeedAt: 3, attempts: attempts).retry(policy)
        let clock = TestClock()
        let run = Task { try await job.run(on: clock) }
        // 30 ms before the second run, 60 ms before the third, each from the failure before it.
        for retry in 1...2 {
            let due = clock.now + policy.delay(forRetry: retry)
            // A plain run tells no one of its retries: its backoff's sleep, pending, says it waits.
            #expect(await clock.waitForSleep(until: due), "run \(retry) failed; pending: \(clock.pendingSleeps)")
            clock.advance(to: due - .milliseconds(1))
            #expect(clock.pendingSleeps == [.milliseconds(1)] && attempts.all.count == retry, "not a millisecond early")
            clock.advance(to: due)
        }
        _ = try await run.value
        #expect(attempts.all == [1, 2, 3])
    }

    @Test func cancellingTheCallerStopsABackoffAndTheBodySeesIt() async throws {
        let firstAttempt = Gate()
        let errors = Recorder<String>()
        let job = Job<Int>(title: "slow retry") { job in
            if job.attempt == 1 {
                firstAttempt.open()
                throw Boom("first")
            }
            return job.attempt
        }
        .retry(.constant(maxAttempts: 2, delay: .seconds(600)))
        .onError { errors.record("\(type(of: $0))") }
        let caller = Task { try await job.run() }
        await firstAttempt.wait()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(errors.all == ["CancellationError"], "a cancel in the backoff is the run's final error")

        let sawCancel = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Job(title: "check") { job in job.isCancelled }.run()
        }
        #expect(try await sawCancel.value, "the body sees the running task's cancellation")
    }
}
