import Testing
import TaskFlow

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
        #expect(flow.status.name == "undone")
        #expect(manager.snapshot().undoable.isEmpty)
        await #expect(throws: FlowError.notUndoable(flow: "publish", status: "undone")) { try await flow.undo() }
    }

    @Test func undoWaitsForTheWriteLock() async throws {
        let manager = TaskFlowManager(state: 0)
        let done = manager.execute(title: "increment") { flow in try await flow.update { $0 += 1 } }
        try await done.value
        let gate = Gate()
        let reader = manager.execute(title: "long read", access: .read) { _ in await gate.wait() }
        #expect(await eventually { reader.status.name == "running" })
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
        await #expect(throws: FlowError.undoOfReadFlow(flow: "read")) { try await read.undo() }

        let failed = manager.execute(title: "failed") { _ in throw Boom() }
        _ = await failed.finished()
        await #expect(throws: FlowError.notUndoable(flow: "failed", status: "failed")) { try await failed.undo() }
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
        await #expect(throws: FlowError.undoHistoryExpired(flow: "add 1", limit: 3)) { try await flows[0].undo() }
        try await flows[4].undo()
        try await flows[3].undo()
        #expect(manager.state == [1, 2, 3])
    }

    @Test func aManagerWithoutHistoryKeepsNothing() async throws {
        let manager = TaskFlowManager(undoHistoryLimit: 0)
        let flow = manager.execute(title: "w") { flow in try await flow.task(title: "t", apply: { _ in }, revert: { _, _ in }) }
        try await flow.value
        #expect(manager.snapshot().undoable.isEmpty)
        await #expect(throws: FlowError.undoHistoryExpired(flow: "w", limit: 0)) { try await flow.undo() }
    }
}
