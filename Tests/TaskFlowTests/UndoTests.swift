import Testing
import TaskFlow
import TaskFlowTestSupport

/// Undo of completed write flows and the bounded undo history.
@Suite struct UndoTests {
    @Test func undoRevertsACompletedWriteFlowInReverseOrder() async throws {
        let manager = TaskFlowManager(state: [String]())
        let trace = Recorder<String>()
        let flow = manager.execute(title: "publish") { flow in
            try await flow.main(title: "show", apply: { trace.record("show") }, revert: { _ in trace.record("hide") })
            try await flow.update { $0.append("post") }
            try await flow.task(title: "upload", apply: { _ in "url" }, revert: { _, url in trace.record("delete \(url)") })
        }
        try await flow.value
        #expect(manager.state == ["post"])
        #expect(manager.snapshot().undoable.map(\.title) == ["publish"])

        try await flow.undo()
        #expect(trace.all == ["show", "delete url", "hide"])
        #expect(manager.state == [])
        #expect(flow.status.phase == .undone)
        #expect(manager.snapshot().undoable.isEmpty)
        await #expect(throws: FlowError.notUndoable(flow: flow.info, phase: .undone)) { try await flow.undo() }
    }

    @Test func undoWaitsForTheWriteLock() async throws {
        let manager = TaskFlowManager(state: 0)
        let done = manager.execute(title: "increment") { flow in try await flow.update { $0 += 1 } }
        try await done.value
        let gate = Gate()
        let reader = manager.execute(title: "long read", access: .read) { _ in await gate.wait() }
        #expect(await eventually { reader.status.phase == .running })
        let undo = Task { try await done.undo() }
        #expect(await eventually { manager.snapshot().lock.queue.map(\.title) == ["increment"] })
        #expect(manager.state == 1, "nothing is reverted while a reader holds the lock")
        gate.open()
        try await undo.value
        #expect(manager.state == 0)
    }

    @Test func readFailedAndCancelledFlowsCannotBeUndone() async throws {
        let manager = TaskFlowManager()
        let read = manager.execute(title: "read", access: .read) { _ in }
        try await read.value
        await #expect(throws: FlowError.undoOfReadFlow(flow: read.info)) { try await read.undo() }

        let failed = manager.execute(title: "failed") { _ in throw Boom() }
        _ = await failed.finished()
        await #expect(throws: FlowError.notUndoable(flow: failed.info, phase: .failed)) { try await failed.undo() }

        let gate = Gate()
        let cancelled = manager.execute(title: "cancelled") { flow in
            try await flow.task(title: "wait", apply: { _ in await gate.wait() }, revert: { _, _ in })
        }
        #expect(await eventually { cancelled.status.phase == .running })
        cancelled.cancel()
        gate.open()
        _ = await cancelled.finished()
        await #expect(throws: FlowError.notUndoable(flow: cancelled.info, phase: .cancelled)) { try await cancelled.undo() }
        #expect(cancelled.status.phase == .cancelled, "a refused undo leaves the status")
    }

    @Test func onlyTheLastNCompletedFlowsKeepTheirUndoLog() async throws {
        let manager = TaskFlowManager(state: [Int](), undoHistoryLimit: 3)
        var flows: [TaskFlow<Void>] = []
        for index in 1...5 {
            let flow = manager.execute(title: "add \(index)") { flow in try await flow.update { $0.append(index) } }
            try await flow.value
            flows.append(flow)
        }
        #expect(manager.snapshot().undoable.map(\.title) == ["add 3", "add 4", "add 5"])
        await #expect(throws: FlowError.undoHistoryExpired(flow: flows[0].info, limit: 3)) { try await flows[0].undo() }
        try await flows[4].undo()
        try await flows[3].undo()
        #expect(manager.state == [1, 2, 3])
    }

    @Test func aManagerWithoutHistoryKeepsNothing() async throws {
        let manager = TaskFlowManager(undoHistoryLimit: 0)
        let flow = manager.execute(title: "w") { flow in try await flow.task(title: "t", apply: { _ in }, revert: { _, _ in }) }
        try await flow.value
        #expect(manager.snapshot().undoable.isEmpty)
        await #expect(throws: FlowError.undoHistoryExpired(flow: flow.info, limit: 0)) { try await flow.undo() }
    }

    @Test func cancellingTheTaskThatAwaitsAnUndoDoesNotInterruptItsReverts() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let (inRevert, finishRevert) = (Gate(), Gate())
        let flow = manager.execute(title: "w") { flow in
            try await flow.task(title: "slow revert", apply: { _ in }, revert: { _, _ in
                inRevert.open()
                await finishRevert.wait()
                try await Task.sleep(for: .milliseconds(5))
                trace.record("reverted")
            })
        }
        try await flow.value
        let undo = Task { try await flow.undo() }
        await inRevert.wait()
        undo.cancel()
        finishRevert.open()
        try await undo.value
        #expect(trace.all == ["reverted"])
        #expect(flow.status.phase == .undone)
    }

    @Test func twoUndosAtOnceRevertOnce() async throws {
        let manager = TaskFlowManager(state: 0)
        let flow = manager.execute(title: "increment") { flow in try await flow.update { $0 += 1 } }
        try await flow.value
        let undos = (0..<2).map { _ in Task { try await flow.undo() } }
        var outcomes: [Result<Void, any Error>] = []
        for undo in undos { outcomes.append(await undo.result) }
        #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1, "exactly one undo ran")
        let refusals = outcomes.compactMap { outcome -> FlowError? in
            guard case .failure(let error) = outcome else { return nil }
            return error as? FlowError
        }
        // The loser saw the winner's undo under way or done: either way a documented refusal.
        let refused = [FlowPhase.undoing, .undone].map { FlowError.notUndoable(flow: flow.info, phase: $0) }
        #expect(refusals.count == 1 && refusals.allSatisfy(refused.contains), "the other undo is refused: \(outcomes)")
        #expect(manager.state == 0)
    }

    @Test func anUndoneFlowNeverLingersInTheUndoHistory() async throws {
        let manager = TaskFlowManager(state: 0)
        var undone = 0
        for _ in 0..<300 {
            let flow = manager.execute(title: "w") { flow in try await flow.update { $0 += 1 } }
            // Undo the instant the flow is visibly completed, racing its entry into the history.
            let undo = Task.detached { () -> Bool in
                while !flow.status.isFinished { await Task.yield() }
                return (try? await flow.undo()) != nil
            }
            _ = await flow.finished()
            if await undo.value {
                undone += 1
                #expect(!manager.snapshot().undoable.contains { $0.id == flow.id })
            }
        }
        #expect(undone > 0, "undos that come right after the completion succeed")
    }

    @Test func aFlowUndoneAsTheHistoryPushesItOutIsNeverAnnouncedAsExpired() async throws {
        let manager = TaskFlowManager(state: 0, undoHistoryLimit: 1)
        let events = manager.events
        var undone: Set<FlowID> = []
        for _ in 0..<300 {
            let flow = manager.execute(title: "w") { flow in try await flow.update { $0 += 1 } }
            try await flow.value
            // The next write flow pushes this one out of the one-flow history as it completes; the
            // undo begins as its body ends, racing the push. (It leaves the state alone, else the
            // undo would always be refused: the state would have changed since this flow.)
            let next = manager.execute(title: "next") { _ in Task { (try? await flow.undo()) != nil } }
            if try await next.value.value { undone.insert(flow.id) }
        }
        // A flow's `undoExpired` comes before the value of the flow that pushed it out: every
        // one is in the stream before this last flow's events.
        let last = manager.execute(title: "last") { _ in }
        try await last.value
        var expired: Set<FlowID> = []
        for await event in events {
            if case .undoExpired(let id) = event { expired.insert(id) }
            if case .statusChanged(last.id, .completed) = event { break }
        }
        // Which of the undo and the push wins each time is the scheduler's; whichever does, a
        // flow is either undone or announced as expired, never both.
        #expect(undone.isDisjoint(with: expired), "undone, yet announced as expired: \(undone.intersection(expired).sorted())")
    }
}
