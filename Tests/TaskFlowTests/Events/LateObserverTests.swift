import Testing
import TaskFlow
import TaskFlowTestSupport

/// What an observer that attaches while flows run needs to draw the truth: event
/// times, revert events that name their step, every live flow's step tree in the snapshot, and
/// an event when a flow leaves the undo history.
@Suite struct LateObserverTests {
    @Test func eventTimesAreWhenTheChangesHappenedNotWhenTheyArrived() async throws {
        let manager = TaskFlowManager()
        let stream = manager.timedEvents
        let before = ContinuousClock.now
        let flow = manager.execute(title: "timed") { flow in
            try await flow.task(title: "nap", apply: { _ in try await Task.sleep(for: .milliseconds(50)) })
        }
        try await flow.value
        let after = ContinuousClock.now
        // Read only now, long after the changes: the times are still the changes' own.
        var events: [TimedFlowEvent] = []
        for await event in stream {
            events.append(event)
            if case .statusChanged(_, let status) = event.event, status.isFinished { break }
        }
        let times = events.map(\.time)
        #expect(times == times.sorted(), "times follow the order of the events")
        #expect(times.allSatisfy { $0 >= before && $0 <= after })
        let start = try #require(events.first { if case .stepStarted = $0.event { true } else { false } })
        let end = try #require(events.first { if case .stepFinished = $0.event { true } else { false } })
        #expect(end.time - start.time >= .milliseconds(50), "the step's own duration")
    }

    /// An observer that comes later shows how long each flow and step has been under way: the
    /// snapshot tells when the flow was submitted, and when each step started and ended.
    @Test func theSnapshotTellsWhenTheFlowWasSubmittedAndItsStepsStartedAndEnded() async throws {
        let manager = TaskFlowManager()
        let (holding, finish) = (Gate(), Gate())
        let before = ContinuousClock.now
        let flow = manager.execute(title: "timed") { flow in
            try await flow.task(title: "first", apply: { _ in })
            try await flow.task(title: "second", apply: { _ in
                holding.open()
                await finish.wait()
            })
        }
        await holding.wait()
        let snapshot = try #require(manager.snapshot().flows.first)
        let after = ContinuousClock.now
        let steps = snapshot.steps
        try #require(steps.map(\.info.title) == ["first", "second"])
        let times = [snapshot.submitted, steps[0].started, steps[0].ended, steps[1].started].compactMap { $0 }
        #expect(times.count == 4, "every time is told")
        #expect(times == times.sorted(), "submitted, then the first step's start and end, then the second's start")
        #expect(times.allSatisfy { before <= $0 && $0 <= after })
        #expect(steps[1].ended == nil, "a running step has not ended")
        finish.open()
        try await flow.value
    }

    @Test func theSnapshotShowsEveryLiveFlowsStepTreeWithStatusesAndProgress() async throws {
        let manager = TaskFlowManager()
        let (inStep, finishStep, inRevert, finishRevert) = (Gate(), Gate(), Gate(), Gate())
        let flow = manager.execute(title: "tree") { flow in
            try await flow.task(title: "outer", apply: { outer in
                try await outer.group(title: "pair") { group in
                    group.task(title: "quick", apply: { _ in }, revert: { _, _ in
                        inRevert.open()
                        await finishRevert.wait()
                    })
                    group.task(title: "slow") { task in
                        task.progress(0.5)
                        inStep.open()
                        await finishStep.wait()
                    }
                }
            })
        }
        await inStep.wait()
        // "quick" runs beside "slow": wait for its end too, not only for "slow" to be in.
        #expect(await eventually {
            let steps = Self.steps(of: manager)
            return steps["slow"]?.progress == 0.5 && steps["quick"]?.status == .completed
        })
        let running = Self.steps(of: manager)
        #expect(running.mapValues(\.status) == [
            "outer": .running, "pair": .running, "quick": .completed, "slow": .running,
        ])
        #expect(running["quick"]?.info.parent == running["pair"]?.info.id)
        #expect(running["pair"]?.info.parent == running["outer"]?.info.id)

        flow.cancel()
        finishStep.open()
        await inRevert.wait()
        let unwinding = Self.steps(of: manager)
        #expect(unwinding["quick"]?.status == .reverting)
        #expect(unwinding["outer"]?.status == .reverting, "the outer step unwinds what it ran first")
        finishRevert.open()
        _ = await flow.finished()
        #expect(manager.snapshot().flows.isEmpty, "a finished flow keeps no step tree")
    }

    @Test func revertEventsNameTheStepTheyRevert() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let flow = manager.execute(title: "named") { flow in
            try await flow.task(title: "outer", apply: { outer in
                try await outer.main(title: "inner", apply: {}, revert: { _ in })
            })
            throw Boom()
        }
        _ = await flow.finished()
        #expect(await log.waitUntilFinished(flow.id))
        let reverted = log.events.compactMap { event -> String? in
            guard case .stepReverted(_, let step) = event else { return nil }
            return "\(step.title) in \(step.parent.map(String.init(describing:)) ?? "flow")"
        }
        #expect(reverted == ["inner in step 1", "outer in flow"])
    }

    @Test func aFlowLeavingTheUndoHistoryIsAnnounced() async throws {
        let manager = TaskFlowManager(state: 0, undoHistoryLimit: 1)
        let log = EventLog(manager)
        let first = manager.execute(title: "first") { flow in try await flow.update { $0 += 1 } }
        try await first.value
        let second = manager.execute(title: "second") { flow in try await flow.update { $0 += 1 } }
        try await second.value
        #expect(await eventually {
            log.events.contains { if case .undoExpired(first.id) = $0 { true } else { false } }
        })
        #expect(!log.events.contains { if case .undoExpired(second.id) = $0 { true } else { false } })
        await #expect(throws: FlowError.undoHistoryExpired(flow: first.info, limit: 1)) { try await first.undo() }
    }

    /// The steps of the manager's only live flow, by title.
    private static func steps(of manager: TaskFlowManager<Void>) -> [String: StepSnapshot] {
        let steps = manager.snapshot().flows.first?.steps ?? []
        return Dictionary(steps.map { ($0.info.title, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
