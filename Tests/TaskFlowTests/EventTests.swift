import Testing
import TaskFlow
import TaskFlowTestSupport

/// What observers see: every event, in order, for every observer; coalesced progress; snapshots.
@Suite struct EventTests {
    /// A compact, comparable rendering of an event for order assertions.
    static func describe(_ event: FlowEvent) -> String {
        switch event {
        case .flowQueued(let info): "queued \(info.title)"
        case .statusChanged(_, let status): status.name
        case .stepStarted(_, let step): "start \(step.title)"
        case .stepFinished(_, _, let outcome): "finish \(outcome)"
        case .progress(_, _, let fraction): "progress \(fraction)"
        case .stepReverting: "reverting"
        case .stepReverted: "reverted"
        case .revertFailed: "revert failed"
        case .lock(let event): "lock \(event.change) \(event.mode)"
        case .undoExpired: "undo expired"
        case .stepRetrying(_, let retry): "retry \(retry.title) \(retry.nextAttempt)/\(retry.maxAttempts) in \(retry.delay)"
        }
    }

    @Test func everyObserverGetsEveryEventInTheSameOrder() async throws {
        let manager = TaskFlowManager()
        let (first, second) = (EventLog(manager), EventLog(manager))
        let flow = manager.execute(title: "observed") { flow in
            try await flow.task(title: "step", apply: { _ in }, revert: { _, _ in })
        }
        try await flow.value
        let expected = [
            "queued observed", "lock admitted WRITE #1", "running", "start step", "finish completed",
            "completed", "lock released idle",
        ]
        #expect(await eventually { first.events.count == expected.count && second.events.count == expected.count })
        #expect(first.events.map(Self.describe) == expected)
        #expect(second.events.map(Self.describe) == expected)
    }

    @Test func aFlowBehindAnotherReportsWaitingAndTheLockQueue() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let gate = Gate()
        let first = manager.execute(title: "first") { _ in await gate.wait() }
        let second = manager.execute(title: "second") { _ in }
        #expect(await eventually { second.status.phase == .waiting })
        gate.open()
        try await first.value
        try await second.value
        let expected = [
            "queued second", "lock enqueued WRITE #1", "waiting", "lock admitted WRITE #2", "running", "completed",
            "lock released idle",
        ]
        let ofSecond = { log.events.filter { $0.flowID == second.id }.map(Self.describe) }
        #expect(await eventually { ofSecond().count == expected.count })
        #expect(ofSecond() == expected)
    }

    @Test func progressReportedAMillionTimesBecomesAFewEvents() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let flow = manager.execute(title: "chatty") { flow in
            try await flow.task(title: "count", apply: { task in
                for i in 0...1_000_000 { task.progress(Double(i) / 1_000_000) }
            })
        }
        try await flow.value
        #expect(await log.waitUntilFinished(flow.id))
        let progress = log.events.compactMap { event -> Double? in
            if case .progress(_, _, let fraction) = event { return fraction }
            return nil
        }
        #expect(progress.count <= 101, "at most one event per whole percent")
        #expect(progress.last == 1.0, "the final value always gets through")
        #expect(progress == progress.sorted())
    }

    @Test func aSnapshotShowsLiveFlowsAndTheLockForLateObservers() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let inStep = Gate()
        let running = manager.execute(title: "running") { flow in
            try await flow.task(title: "busy", apply: { task in
                task.progress(0.25)
                inStep.open()
                await gate.wait()
            })
        }
        let waiting = manager.execute(title: "waiting") { _ in }
        await inStep.wait()
        #expect(await eventually { waiting.status.phase == .waiting })
        let snapshot = manager.snapshot()
        #expect(snapshot.flows.map(\.info.title) == ["running", "waiting"])
        #expect(snapshot.flows[0].currentStep?.title == "busy")
        #expect(snapshot.flows[0].progress == 0.25)
        #expect(snapshot.lock.mode == .write(running.id))
        #expect(snapshot.lock.holders.map(\.title) == ["running"])
        #expect(snapshot.lock.queue.map(\.title) == ["waiting"])
        gate.open()
        try await waiting.value
        #expect(manager.snapshot().flows.isEmpty, "finished flows leave the snapshot")
    }

    @Test func revertEventsLetAnObserverWatchTheUnwind() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let flow = manager.execute(title: "unwind") { flow in
            try await flow.task(title: "one", apply: { _ in }, revert: { _, _ in })
            try await flow.task(title: "two", apply: { _ in }, revert: { _, _ in throw Boom() })
            throw Boom("stop")
        }
        _ = await flow.finished()
        #expect(await log.waitUntilFinished(flow.id))
        #expect(log.reverts(of: flow.id, titles: log.stepTitles(of: flow.id)) == [
            "reverting two", "failed two", "reverting one", "reverted one",
        ])
    }

    @Test func theLastProgressValueOfAStepReachesObservers() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let flow = manager.execute(title: "half") { flow in
            try await flow.task(title: "half way", apply: { task in
                task.progress(0.10)
                task.progress(0.50)
            })
        }
        try await flow.value
        #expect(await log.waitUntilFinished(flow.id))
        let progress = log.events.compactMap { event -> Double? in
            if case .progress(_, _, let fraction) = event { return fraction }
            return nil
        }
        #expect(progress.last == 0.50)
    }

    @Test func everyFlowReportsWaitingBeforeTheLockAdmitsIt() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let flows = (0..<1_000).map { index in
            manager.execute(title: "f\(index)", access: index % 3 == 0 ? .write : .read) { _ in await Task.yield() }
        }
        for flow in flows { _ = await flow.finished() }
        #expect(await eventually { flows.allSatisfy { log.statuses(of: $0.id).last?.isFinished == true } })
        var waited = 0
        for flow in flows {
            let mine = log.events.filter { $0.flowID == flow.id }.map(Self.describe)
            // A flow the lock admits at once may skip "waiting"; one that waits must be admitted after.
            guard let waiting = mine.firstIndex(of: "waiting") else { continue }
            waited += 1
            let admitted = try #require(mine.firstIndex { $0.hasPrefix("lock admitted") }, "admitted: \(mine)")
            #expect(admitted > waiting, "\(mine)")
        }
        #expect(waited > 0, "with a writer in every three of 1,000 flows, some wait for the lock")
    }
}
