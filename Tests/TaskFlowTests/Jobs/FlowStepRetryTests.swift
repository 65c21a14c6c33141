import Testing
import TaskFlow
import TaskFlowTestSupport

/// `flow.task(title:retry:apply:revert:)`: each attempt is a step, nothing of a failed attempt
/// stays applied, and the revert is registered once, for the attempt that worked.
@Suite struct FlowStepRetryTests {
    @Test func aStepRetriesAndRegistersItsRevertOnceForTheAttemptThatWorked() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let trace = Recorder<String>()
        let flow = manager.execute(title: "upload", access: .write) { flow in
            try await flow.task(title: "Upload", retry: .immediate(maxAttempts: 3), apply: { task in
                let attempt = trace.all.filter { $0.hasPrefix("apply") }.count + 1
                trace.record("apply \(attempt)")
                try await task.main(title: "show \(attempt)", apply: { trace.record("show \(attempt)") },
                                    revert: { _ in trace.record("hide \(attempt)") })
                if attempt < 3 { throw Boom("attempt \(attempt)") }
                return attempt
            }, revert: { _, attempt in trace.record("revert \(attempt)") })
        }
        #expect(try await flow.value == 3)
        #expect(trace.all == ["apply 1", "show 1", "hide 1", "apply 2", "show 2", "hide 2", "apply 3", "show 3"],
                "a failed attempt's foreground sub-step was reverted before the next attempt")
        try await flow.undo()
        #expect(trace.all.suffix(2) == ["hide 3", "revert 3"], "one revert, for the attempt that worked, after its sub-step's")

        #expect(await log.waitUntilFinished(flow.id))
        let titles = log.events.compactMap { event -> String? in
            if case .stepStarted(flow.id, let step) = event, step.kind == .task { return step.title }
            return nil
        }
        #expect(titles == ["Upload", "Upload (attempt 2/3)", "Upload (attempt 3/3)"])
    }

    @Test func betweenTwoAttemptsObserversHearWhichAttemptComesNextAndWhen() async throws {
        let clock = TestClock()
        let manager = TaskFlowManager(clock: clock)
        let log = EventLog(manager)
        let attempts = Recorder<Int>()
        let policy = RetryPolicy.exponential(maxAttempts: 3, initial: .milliseconds(20), cap: .seconds(1))
        let flow = manager.execute(title: "sync", access: .write) { flow in
            try await flow.task(title: "Push", retry: policy,
                                apply: { _ in
                                    attempts.record(attempts.all.count + 1)
                                    if attempts.all.count < 3 { throw Boom("HTTP 503") }
                                }, revert: nil)
        }
        for retry in 1...2 {
            // Announced once the backoff's end is fixed: the attempt failed now, so it ends at `due`.
            #expect(await eventually { retriesAnnounced(log) == retry })
            let due = clock.now + policy.delay(forRetry: retry)
            clock.advance(to: due - .milliseconds(1))
            #expect(await clock.waitForSleep(until: due), "a millisecond early, the backoff waits on: \(clock.pendingSleeps)")
            #expect(attempts.all.count == retry)
            clock.advance(to: due)
        }
        try await flow.value
        #expect(await log.waitUntilFinished(flow.id))
        let seen = log.events.compactMap { event -> String? in
            switch event {
            case .stepStarted(_, let step) where step.kind == .task: "start \(step.title)"
            case .stepFinished(_, _, .failed(let message)): "failed \(message)"
            case .stepRetrying(_, let retry): "retry \(retry.title): attempt \(retry.nextAttempt)/\(retry.maxAttempts) in \(retry.delay), \(retry.error)"
            default: nil
            }
        }
        #expect(seen == [
            "start Push", "failed Boom(HTTP 503)", "retry Push: attempt 2/3 in 0.02 seconds, Boom(HTTP 503)",
            "start Push (attempt 2/3)", "failed Boom(HTTP 503)", "retry Push: attempt 3/3 in 0.04 seconds, Boom(HTTP 503)",
            "start Push (attempt 3/3)",
        ])
    }

    @Test func aStepThatFailsEveryAttemptFailsTheFlowWhichRollsBack() async throws {
        let clock = TestClock()
        let manager = TaskFlowManager(clock: clock)
        let log = EventLog(manager)
        let trace = Recorder<String>()
        let attempts = Recorder<Int>()
        let flow = manager.execute(title: "doomed", access: .write) { flow in
            try await flow.task(title: "Before", apply: { _ in trace.record("before") },
                                revert: { _, _ in trace.record("revert before") })
            try await flow.task(title: "Upload", retry: .constant(maxAttempts: 3, delay: .milliseconds(5)), apply: { _ in
                attempts.record(attempts.all.count + 1)
                throw Boom("down")
            }, revert: { _, _ in trace.record("revert upload") })
        }
        for retry in 1...2 {
            #expect(await eventually { retriesAnnounced(log) == retry })
            clock.advance(by: .milliseconds(5))
        }
        await #expect(throws: Boom("down")) { try await flow.value }
        #expect(attempts.all == [1, 2, 3])
        #expect(trace.all == ["before", "revert before"], "the failed step registered no revert")
    }

    @Test func aCancelDuringTheBackoffEndsTheWaitAndRollsBack() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let failed = Gate()
        let flow = manager.execute(title: "patient", access: .write) { flow in
            try await flow.task(title: "Before", apply: { _ in trace.record("before") },
                                revert: { _, _ in trace.record("revert before") })
            try await flow.task(title: "Upload", retry: .constant(maxAttempts: 2, delay: .seconds(600)), apply: { _ in
                trace.record("attempt")
                failed.open()
                throw Boom("down")
            })
        }
        await failed.wait()
        let start = ContinuousClock.now
        flow.cancel()
        await #expect(throws: CancellationError.self) { try await flow.value }
        // Far below the backoff, far above what a loaded machine adds to a cancel and a rollback.
        #expect(ContinuousClock.now - start < .seconds(120), "the 600 s backoff did not run out")
        #expect(trace.all == ["before", "attempt", "revert before"])
    }

    @Test func anErrorThePolicyDoesNotRetryEndsTheStepAtOnce() async throws {
        let manager = TaskFlowManager()
        let attempts = Recorder<Int>()
        let flow = manager.execute(title: "picky", access: .write) { flow in
            try await flow.task(title: "Upload", retry: RetryPolicy.immediate(maxAttempts: 5).retrying(if: { _ in false }),
                                apply: { _ in
                attempts.record(1)
                throw Boom("permanent")
            })
        }
        await #expect(throws: Boom("permanent")) { try await flow.value }
        #expect(attempts.all == [1])
    }
}

/// How many `stepRetrying` events `log` received: a step announces its retry once the end of
/// its backoff is fixed, so a test may move its clock after that.
private func retriesAnnounced(_ log: EventLog) -> Int {
    log.events.filter { if case .stepRetrying = $0 { true } else { false } }.count
}
