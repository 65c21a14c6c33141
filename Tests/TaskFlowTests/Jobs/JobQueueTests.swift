import Testing
import TaskFlow
import TaskFlowTestSupport

/// `JobQueue`: concurrency limit, priorities, pause and resume, cancel, status, events.
@Suite struct JobQueueTests {
    /// A job whose value is an optional's nil gives back that nil, never a missing value: awaited
    /// from a task started before the job may end (so it mostly waits), and after its end.
    @Test func aJobsNilValueComesBackAsNilBeforeAndAfterItsEnd() async throws {
        let queue = JobQueue(title: "optional")
        let gate = Gate()
        let handle = queue.add(Job(title: "nothing found") { _ -> Int? in
            await gate.wait()
            return nil
        })
        let awaitedWhileRunning = Task { try await handle.value }
        gate.open()
        let whileRunning = try await awaitedWhileRunning.value
        #expect(whileRunning == nil)
        let afterItsEnd = try await handle.value
        #expect(afterItsEnd == nil)
        #expect(handle.status == .succeeded)
    }

    @Test func aQueueRunsAtMostMaxConcurrentJobsAtOnce() async throws {
        let queue = JobQueue(title: "limit", maxConcurrent: 3)
        let gate = Gate()
        let started = Recorder<String>()
        let handles = (0..<10).map { queue.add(gatedJob("job \($0)", started, gate: gate)) }
        #expect(await eventually { started.all.count == 3 })
        #expect(handles.filter { $0.status == .running }.count == 3)
        #expect(handles.filter { $0.status == .waiting }.count == 7)
        gate.open()
        for (index, handle) in handles.enumerated() { #expect(try await handle.value == "job \(index)") }
        #expect(started.all.count == 10)
    }

    @Test func waitingJobsStartByPriorityThenInTheOrderAdded() async throws {
        let queue = JobQueue(title: "one at a time", maxConcurrent: 1)
        queue.pause()
        let started = Recorder<String>()
        let open = Gate()
        open.open()
        let plan: [(String, JobPriority)] = [
            ("low", .low), ("normal 1", .normal), ("high 1", .high), ("normal 2", .normal), ("high 2", .high),
        ]
        let handles = plan.map { queue.add(gatedJob($0.0, started, gate: open), priority: $0.1) }
        queue.resume()
        for handle in handles { _ = try await handle.value }
        #expect(started.all == ["high 1", "high 2", "normal 1", "normal 2", "low"])
    }

    @Test func resumeStartsAsManyWaitingJobsAsSlotsAllowAtOnceAndEveryCallerGetsTheValue() async throws {
        let queue = JobQueue(title: "burst", maxConcurrent: 3)
        queue.pause()
        let gate = Gate()
        let started = Recorder<String>()
        let handles = (0..<5).map { queue.add(gatedJob("job \($0)", started, gate: gate)) }
        queue.resume()
        #expect(await eventually { started.all.count == 3 })
        #expect(Set(started.all) == ["job 0", "job 1", "job 2"], "the first three, picked together")
        // Three callers await the same job, whether they come before it ends or after: each
        // gets its value.
        let values = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<3 { group.addTask { try await handles[0].value } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        gate.open()
        #expect(try await values.value == ["job 0", "job 0", "job 0"])
        for (index, handle) in handles.enumerated() { #expect(try await handle.value == "job \(index)") }
        #expect(started.all.count == 5)
    }

    @Test func pauseStopsStartsButNotRunningJobsAndResumeStartsAgain() async throws {
        let queue = JobQueue(title: "pausable", maxConcurrent: 1)
        let started = Recorder<String>()
        let gate = Gate()
        let first = queue.add(gatedJob("first", started, gate: gate))
        #expect(await eventually { started.all == ["first"] })
        queue.pause()
        #expect(queue.isPaused)
        let second = queue.add(gatedJob("second", started, gate: gate))
        gate.open()
        #expect(try await first.value == "first", "the running job went on")
        // Another queue's job runs meanwhile: the paused queue had every chance to start.
        _ = try await JobQueue(title: "probe").add(Job(title: "probe") { _ in }).value
        #expect(second.status == .waiting)
        #expect(started.all == ["first"])
        queue.resume()
        #expect(try await second.value == "second")
    }

    @Test func aJobCancelledWhileWaitingNeverRunsAndReportsOnce() async throws {
        let queue = JobQueue(title: "busy", maxConcurrent: 1)
        let gate = Gate()
        let started = Recorder<String>()
        let errors = Recorder<String>()
        let blocker = queue.add(gatedJob("blocker", started, gate: gate))
        let waiting = queue.add(gatedJob("waiting", started, gate: gate).onError { errors.record("\($0)") })
        let next = queue.add(gatedJob("next", started, gate: gate))
        waiting.cancel()
        #expect(waiting.status == .cancelled, "a waiting job ends at once")
        await #expect(throws: CancellationError.self) { try await waiting.value }
        gate.open()
        _ = try await blocker.value
        _ = try await next.value
        #expect(started.all == ["blocker", "next"], "the cancelled job never ran; its slot went to the next")
        #expect(errors.all == ["CancellationError()"])
        waiting.cancel()
        #expect(errors.all.count == 1, "cancelling an ended job changes nothing")
    }

    @Test func aJobCancelledWhileRunningSeesIsCancelled() async throws {
        let queue = JobQueue(title: "running", maxConcurrent: 1)
        let running = Gate()
        let sawCancel = Recorder<Bool>()
        let handle = queue.add(Job<Int>(title: "loop") { job in
            running.open()
            while !job.isCancelled { await Task.yield() }
            sawCancel.record(true)
            throw CancellationError()
        })
        await running.wait()
        #expect(handle.status == .running)
        handle.cancel()
        await #expect(throws: CancellationError.self) { try await handle.value }
        #expect(handle.status == .cancelled)
        #expect(sawCancel.all == [true])

        // Cancellable awaits in the body throw as well.
        let sleeping = Gate()
        let sleeper = queue.add(Job(title: "sleeper") { _ in
            sleeping.open()
            try await Task.sleep(for: .seconds(600))
        })
        await sleeping.wait()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func cancelAllEndsRunningAndWaitingJobs() async throws {
        let queue = JobQueue(title: "all", maxConcurrent: 2)
        let started = Recorder<String>()
        let handles = (0..<6).map { index in
            queue.add(Job<Int>(title: "sleep \(index)") { _ in
                started.record("sleep \(index)")
                try await Task.sleep(for: .seconds(600))
                return index
            })
        }
        #expect(await eventually { started.all.count == 2 })
        queue.cancelAll()
        for handle in handles {
            await #expect(throws: CancellationError.self) { try await handle.value }
            #expect(handle.status == .cancelled)
        }
        #expect(started.all.count == 2, "waiting jobs never started")
    }

    @Test func statusShowsRetryingWithTheNextAttemptsTime() async throws {
        let clock = TestClock()
        let queue = JobQueue(title: "retries", clock: clock)
        let secondAttempt = Gate()
        let handle = queue.add(Job(title: "twice") { job in
            if job.attempt == 1 { throw Boom("first") }
            await secondAttempt.wait()
            return job.attempt
        }.retry(.constant(maxAttempts: 3, delay: .milliseconds(300))))
        // The first attempt fails at once, with the clock still at its start.
        let due = clock.now + .milliseconds(300)
        #expect(await eventually { handle.status == .retrying(attempt: 2, at: due) }, "\(handle.status)")
        clock.advance(to: due - .milliseconds(1))
        #expect(await clock.waitForSleep(until: due), "a millisecond early, the backoff waits on: \(clock.pendingSleeps)")
        #expect(handle.status == .retrying(attempt: 2, at: due))
        clock.advance(to: due)
        #expect(await eventually { handle.status == .running })
        secondAttempt.open()
        #expect(try await handle.value == 2)
        #expect(handle.status == .succeeded)

        let failing = queue.add(Job<Int>(title: "fails") { _ in throw Boom("bad") })
        await #expect(throws: Boom("bad")) { try await failing.value }
        #expect(failing.status == .failed("Boom(bad)"))
    }

    @Test func eventsTellAJobsWholeStoryInOrder() async throws {
        let clock = TestClock()
        let queue = JobQueue(title: "observed", clock: clock)
        let log = JobEventLog(queue)
        let job = Job(title: "story") { job in
            job.progress(0.5)
            job.progress(0.501)   // same whole percent: coalesced
            if job.attempt == 1 { throw Boom("once") }
            return 1
        }.retry(.constant(maxAttempts: 3, delay: .milliseconds(20)))
        let handle = queue.add(job, priority: .high)
        // The failure is announced once its backoff's end is fixed: 20 ms from now.
        #expect(await eventually { log.lines(of: handle.id).contains { $0.hasPrefix("attempt 1/3 failed") } })
        clock.advance(by: .milliseconds(20))
        _ = try await handle.value
        #expect(await log.waitUntilFinished(handle.id))
        #expect(log.lines(of: handle.id) == [
            "added", "started 1", "progress 50", "attempt 1/3 failed: Boom(once), next in 0.02 seconds",
            "started 2", "progress 50", "finished succeeded",
        ])
        guard case .added(let info) = log.events.first else {
            Issue.record("the first event is not `added`")
            return
        }
        #expect(info.title == "story" && info.queue == "observed" && info.priority == .high)

        queue.pause()
        queue.resume()
        #expect(await eventually { log.events.filter { if case .paused = $0 { true } else { false } }.count == 2 })
    }

    @Test func handlersRunOnceOnAQueueBeforeTheValueIsDelivered() async throws {
        let values = Recorder<Int>()
        let handle = JobQueue.background.add(Job(title: "h") { job in
            if job.attempt < 3 { throw Boom() }
            return job.attempt
        }.retry(3).onValue { values.record($0) })
        #expect(try await handle.value == 3)
        #expect(values.all == [3])
    }

    /// A job's task may run the next job once the first ended; a cancel of the ended job, racing
    /// with that, must never reach the next one. Every job here stops if it sees a cancel, so a
    /// cancel that went astray would end an uncancelled job `cancelled`.
    @Test func stressACancelOfAnEndedJobNeverReachesTheNextJobOnItsTask() async throws {
        var random = SeededGenerator(seed: 21)
        let queue = JobQueue(title: "hand-off", maxConcurrent: 2)
        let cancelled = Recorder<JobID>()
        var handles: [JobHandle<Int>] = []
        for index in 0..<1_000 {
            let after = index > 0 && index % 2 == 0 ? [handles[index - 1]] : []
            handles.append(queue.add(Job(title: "\(index)") { job in
                await Task.yield()
                if job.isCancelled { throw CancellationError() }
                return index
            }, after: after))
            if index > 0, Int.random(in: 0..<4, using: &random) == 0 {
                cancelled.record(handles[index - 1].id)
                handles[index - 1].cancel()
            }
        }
        // Every job ends: a job started while a cancel was ending it once kept its slot for
        // good, and the queue stopped (waiting for the values hung). Alone, the jobs end in
        // 40 ms; in the full suite on two loaded cores, each of their thousands of hops waits
        // behind every other test's tasks, and 3,000 jobs once took over a minute: the bound
        // only catches a queue that stopped.
        let ended = Recorder<Int>()
        Task { [handles] in
            for handle in handles { _ = try? await handle.value }
            ended.record(handles.count)
        }
        try #require(await eventually(within: 300) { !ended.all.isEmpty }, "every job ended")
        let targets = Set(cancelled.all)
        for handle in handles where handle.status == .cancelled {
            #expect(targets.contains(handle.id), "job \(handle.title) was cancelled without being asked")
        }
    }

    /// Many jobs of random priorities and durations, some cancelled at random moments, on a small
    /// queue: every job ends, every value matches, and the limit always holds.
    @Test func stressEveryJobEndsAndTheLimitHolds() async throws {
        var random = SeededGenerator(seed: 8)
        let queue = JobQueue(title: "stress", maxConcurrent: 4)
        let inFlight = Registrar()
        let handles = (0..<2_000).map { index in
            queue.add(Job(title: "\(index)") { _ in
                inFlight.enter("read")
                defer { inFlight.leave("read") }
                if index % 3 == 0 { await Task.yield() }
                return index
            }, priority: JobPriority.allCases.randomElement(using: &random) ?? .normal)
        }
        for handle in handles where Int.random(in: 0..<10, using: &random) == 0 { handle.cancel() }
        for (index, handle) in handles.enumerated() {
            do {
                #expect(try await handle.value == index)
            } catch {
                #expect(error is CancellationError)
                #expect(handle.status == .cancelled)
            }
        }
        #expect(inFlight.maxReaders <= 4)
    }
}
