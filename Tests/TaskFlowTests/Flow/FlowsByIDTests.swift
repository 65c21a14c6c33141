import Testing
import TaskFlow
import TaskFlowTestSupport

/// A watcher that never held a flow's handle (the dashboard embedded in a program, a console's
/// client) cancels and undoes it by id, exactly as the handle would.
@Suite struct FlowsByIDTests {
    @Test func cancelByIDLetsTheStepFinishThenRollsBack() async throws {
        let manager = TaskFlowManager(state: [String]())
        let gate = Gate()
        let trace = Recorder<String>()
        let flow = manager.execute(title: "import") { flow in
            try await flow.update { $0.append("a") }
            try await flow.task(title: "slow", apply: { _ in await gate.wait(); trace.record("slow done") }, revert: { _, _ in trace.record("slow reverted") })
            try await flow.update { $0.append("never") }
        }
        #expect(await eventually { manager.snapshot().flows.first?.currentStep?.title == "slow" })
        #expect(manager.cancel(flow.id))
        gate.open()
        #expect(await flow.finished().phase == .cancelled)
        #expect(trace.all == ["slow done", "slow reverted"])
        #expect(manager.state == [])
        #expect(!manager.cancel(flow.id), "an ended flow is no longer live")
    }

    @Test func cancelByIDOfAQueuedFlowTakesItOutOfTheLockQueue() async throws {
        let manager = TaskFlowManager(state: 0)
        let gate = Gate()
        let holder = manager.execute(title: "holder") { _ in await gate.wait() }
        let waiting = manager.execute(title: "waiting") { flow in try await flow.update { $0 += 1 } }
        #expect(await eventually { manager.snapshot().lock.queue.map(\.title) == ["waiting"] })
        #expect(manager.cancel(waiting.id))
        #expect(manager.snapshot().lock.queue.isEmpty)
        #expect(await waiting.finished().phase == .cancelled)
        gate.open()
        try await holder.value
        #expect(manager.state == 0)
    }

    @Test func undoByIDRevertsACompletedFlowAndNamesUnknownOnes() async throws {
        let manager = TaskFlowManager(state: [String]())
        let flow = manager.execute(title: "publish") { flow in try await flow.update { $0.append("post") } }
        try await flow.value
        try await manager.undo(flow.id)
        #expect(manager.state == [])
        #expect(flow.status.phase == .undone)
        await #expect(throws: FlowError.unknownFlow(FlowID(999))) { try await manager.undo(FlowID(999)) }
        #expect(!manager.cancel(FlowID(999)))
    }

    @Test func undoByIDOfARunningFlowIsRefusedAsTheHandleWould() async throws {
        let manager = TaskFlowManager(state: 0)
        let gate = Gate()
        let flow = manager.execute(title: "busy") { _ in await gate.wait() }
        #expect(await eventually { flow.status.phase == .running })
        await #expect(throws: FlowError.notUndoable(flow: flow.info, phase: .running)) { try await manager.undo(flow.id) }
        gate.open()
        try await flow.value
    }
}
