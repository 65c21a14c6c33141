import Testing
import TaskFlow
import TaskFlowTestSupport

/// A context kept past its flow's end cannot start steps: nothing could ever revert them.
@Suite struct EscapedContextTests {
    @Test func aStepThroughAnEscapedFlowContextIsRefusedBeforeItRuns() async throws {
        let manager = TaskFlowManager(state: 0)
        let kept = Recorder<FlowContext<Int>>()
        let ran = Recorder<String>()
        let flow = manager.execute(title: "leaky") { flow in kept.record(flow) }
        try await flow.value
        let context = try #require(kept.all.first)

        await #expect(throws: FlowError.stepAfterFlowEnded(flow: flow.info, step: "late")) {
            try await context.main(title: "late", apply: { ran.record("main") }, revert: { _ in })
        }
        await #expect(throws: FlowError.stepAfterFlowEnded(flow: flow.info, step: "Update state")) {
            try await context.update { $0 += 1 }
        }
        await #expect(throws: FlowError.stepAfterFlowEnded(flow: flow.info, step: "late task")) {
            try await context.task(title: "late task", apply: { _ in ran.record("task") })
        }
        #expect(ran.all.isEmpty)
        #expect(manager.state == 0)
        #expect(flow.status.phase == .completed)
    }

    @Test func aStepThroughAnEscapedTaskContextIsRefusedToo() async throws {
        let manager = TaskFlowManager()
        let kept = Recorder<TaskContext<Void>>()
        let flow = manager.execute(title: "leaky") { flow in
            try await flow.task(title: "outer", apply: { task in kept.record(task) })
        }
        try await flow.value
        let context = try #require(kept.all.first)
        await #expect(throws: FlowError.stepAfterFlowEnded(flow: flow.info, step: "late")) {
            try await context.task(title: "late", apply: { _ in })
        }
    }

    /// A step that a task the body did not await started before the body ended is waited for:
    /// its sub-steps may run, its revert is registered, and the flow ends after it — so an undo
    /// reverts it, and nothing of it runs after the flow let go of the lock.
    @Test func aStepStartedBeforeTheEndByAnEscapedTaskIsWaitedForAndReverted() async throws {
        let manager = TaskFlowManager(state: 0)
        let inside = Gate(), release = Gate()
        let flow = manager.execute(title: "spawner") { flow in
            Task {
                try await flow.task(title: "escaped", apply: { task in
                    inside.open()
                    await release.wait()
                    try await task.update { $0 += 1 }
                })
            }
            await inside.wait()
        }
        #expect(await eventually { flow.status.phase == .running })
        release.open()
        try await flow.value
        #expect(manager.state == 1, "the escaped step's update ran, inside the flow")
        try await flow.undo()
        #expect(manager.state == 0, "and the flow's undo reverted it")
    }

    /// A sub-step that a task its parent step did not await completes after that parent ended:
    /// the parent took its inside already, so the flow's own list keeps the sub-step's revert.
    @Test func aSubStepThatOutlivesItsParentStepIsStillRevertedWithTheFlow() async throws {
        let manager = TaskFlowManager(state: 0)
        let parentEnded = Gate(), subStepEnded = Gate()
        let flow = manager.execute(title: "spawner") { flow in
            try await flow.task(title: "parent", apply: { task in
                Task {
                    defer { subStepEnded.open() }
                    await parentEnded.wait()
                    try await task.update { $0 += 1 }
                }
            })
            parentEnded.open()
            await subStepEnded.wait()
        }
        try await flow.value
        #expect(manager.state == 1, "the late sub-step ran, inside the flow")
        try await flow.undo()
        #expect(manager.state == 0, "and the flow's undo reverted it")
    }

    @Test func aRevertMayStillRunStepsDuringTheRollback() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let flow = manager.execute(title: "cleanup") { flow in
            try await flow.task(title: "upload", apply: { _ in }, revert: { task, _ in
                try await task.main(title: "tell", apply: { trace.record("told") }, revert: { _ in })
            })
            throw Boom("later step")
        }
        await #expect(throws: Boom("later step")) { try await flow.value }
        #expect(trace.all == ["told"])
    }

    @Test func aContextKeptFromARevertIsRefusedOnceTheRevertReturned() async throws {
        let manager = TaskFlowManager(state: 0)
        let kept = Recorder<TaskContext<Int>>()
        let flow = manager.execute(title: "cleanup") { flow in
            try await flow.task(title: "upload", apply: { _ in }, revert: { task, _ in kept.record(task) })
            throw Boom("later step")
        }
        await #expect(throws: Boom("later step")) { try await flow.value }
        let context = try #require(kept.all.first)
        await #expect(throws: FlowError.stepAfterFlowEnded(flow: flow.info, step: "Update state")) {
            try await context.update { $0 += 1 }
        }
        #expect(manager.state == 0, "no change without the lock")
    }
}
