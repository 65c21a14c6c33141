@testable import DashboardKit
import Foundation
import TaskFlow
import TaskFlowTestSupport
import Testing

/// A program's own manager as the embedded dashboard watches it (`ManagerSource`): every flow
/// gets a handle, whether it started before the dashboard subscribed or after, the handles act
/// on the program's flows by id, and a headless run ends when the program's work has.
@Suite("Embedded: the manager source")
@MainActor
struct ManagerSourceTests {
    private func session(headless: Bool = false) -> DashboardSession {
        DashboardSession(
            scenarioName: "program", theme: .fallback, themes: ThemeCatalog(directories: []), exitsWhenScenarioEnds: headless)
    }

    /// A write flow that appends `item`, waits for `gate`, then takes one more step (which a
    /// cancel made meanwhile stops, rolling the append back).
    private func append(_ item: String, to manager: TaskFlowManager<[String]>, gate: Gate) -> TaskFlow<Void> {
        manager.execute(title: "Add \(item)", access: .write) { flow in
            try await flow.update(title: "append \(item)") { $0.append(item) }
            await gate.wait()
            try await flow.task(title: "finish") { _ in }
        }
    }

    @Test func flowsStartedBeforeAndAfterTheSubscriptionEachGetAHandleThatCancelsThroughTheManager() async throws {
        let manager = TaskFlowManager(state: [String]())
        let (first, second) = (Gate(), Gate())
        let before = append("before", to: manager, gate: first)
        let source = ManagerSource(name: "program", manager: manager)
        var handles = source.start().makeAsyncIterator()
        let early = try #require(await handles.next())
        #expect(early.id == before.id, "the flow live at the start")
        let after = append("after", to: manager, gate: second)
        let late = try #require(await handles.next())
        #expect(late.id == after.id, "the flow submitted later, from another context")
        late.cancel()
        second.open()
        await #expect(throws: CancellationError.self) { try await after.value }
        first.open()
        try await before.value
        #expect(manager.state == ["before"], "the cancelled flow was rolled back, the other kept")
    }

    @Test func aHandleUndoesACompletedWriteFlowThroughTheManager() async throws {
        let manager = TaskFlowManager(state: [String]())
        let gate = Gate()
        gate.open()
        let source = ManagerSource(name: "program", manager: manager)
        var handles = source.start().makeAsyncIterator()
        let flow = append("book", to: manager, gate: gate)
        let handle = try #require(await handles.next())
        try await flow.value
        try await handle.undo()
        #expect(manager.state.isEmpty)
    }

    /// `c` on the selected flow and `u`, `y` on a completed one act on the program's flows: the
    /// dashboard never held their handles.
    @Test func keysCancelAndUndoTheProgramsFlows() async throws {
        let manager = TaskFlowManager(state: [String]())
        let (held, done) = (Gate(), Gate())
        done.open()
        let completed = append("kept", to: manager, gate: done)
        try await completed.value
        let running = append("running", to: manager, gate: held)
        let session = session()
        session.start(ManagerSource(name: "program", manager: manager))
        defer { session.stop() }
        try #require(await eventually { session.model.live.flows.contains { $0.info.id == running.id && $0.phase == .running } })
        // Only the running flow is listed (the completed one ended before the dashboard came),
        // and it is selected.
        session.handle(.character("c"))
        held.open()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(manager.state == ["kept"])
        // A flow completed after the dashboard started is listed, and `u`, `y` undo it.
        let later = append("later", to: manager, gate: done)
        try await later.value
        try #require(await eventually { session.model.live.flow(later.id)?.phase == .completed })
        session.handle(.end)
        session.handle(.character("u"))
        session.handle(.character("y"))
        #expect(await eventually { manager.state == ["kept"] }, "undone: \(manager.state)")
    }

    /// `c` reaches the program's flow the moment it is handled, even before the flow's handle
    /// came through the source's stream: a key typed in the same turn as the start (or as the
    /// flow's listing) was once kept until the handle arrived, and a flow that completed
    /// meanwhile ran to the end under a "cancelling … rolling back" notice (CI, under
    /// ThreadSanitizer).
    @Test func cCancelsAProgramsFlowAtOnceBeforeItsHandleArrives() async throws {
        let manager = TaskFlowManager(state: [String]())
        let (reached, held) = (Gate(), Gate())
        let running = manager.execute(title: "Add running", access: .write) { flow in
            try await flow.update(title: "append running") { $0.append("running") }
            reached.open()
            await held.wait()
            try await flow.task(title: "finish") { _ in }
        }
        await reached.wait()
        let session = session()
        session.start(ManagerSource(name: "program", manager: manager))
        defer { session.stop() }
        // Nothing awaited since the start: the session has listed the flow (its snapshot) but
        // not yet taken its handle from the stream.
        #expect(session.model.flows.selection == running.id)
        session.handle(.character("c"))
        #expect(running.status.phase == .cancelling, "the program's flow is cancelling as the key is handled")
        held.open()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(manager.state.isEmpty, "its append rolled back")
    }

    @Test func headlessItEndsOnceTheFlowsLiveAtTheStartAndThoseTheyLedToEnded() async throws {
        let manager = TaskFlowManager(state: [String]())
        let (gate, followUp) = (Gate(), Gate())
        // The first flow submits the second before it ends: the run waits for both.
        let first = manager.execute(title: "First", access: .write) { flow in
            await gate.wait()
            manager.execute(title: "Follow-up", access: .read) { _ in await followUp.wait() }
        }
        let session = session(headless: true)
        session.start(ManagerSource(name: "program", manager: manager))
        defer { session.stop() }
        gate.open()
        try await first.value
        try #require(await eventually { session.model.live.flows.contains { $0.info.title == "Follow-up" } })
        #expect(session.exitRequest == nil, "the follow-up is still running")
        followUp.open()
        #expect(await eventually { session.exitRequest == .scenarioEnded(incompleteRollbacks: 0) })
    }

    @Test func headlessItWaitsForTheQueuesJobsAndEndsAtOnceWithNothingLive() async throws {
        let manager = TaskFlowManager()
        let queue = JobQueue(title: "uploads")
        let gate = Gate()
        let upload = queue.add(Job(title: "upload") { _ in await gate.wait() })
        let session = session(headless: true)
        session.start(ManagerSource(name: "program", manager: manager, queues: JobQueueList([queue])))
        defer { session.stop() }
        try #require(await eventually { session.model.tab(QueuesTab.self)?.board.jobs[upload.id] != nil }, "the job added before the start listed")
        #expect(session.exitRequest == nil, "the job is still running")
        gate.open()
        #expect(await eventually { session.exitRequest == .scenarioEnded(incompleteRollbacks: 0) })
        // The session heard the job's end, which the queue announces before it counts the job
        // out of its running ones; its handle hears it after.
        try await upload.value

        let idle = self.session(headless: true)
        idle.start(ManagerSource(name: "program", manager: manager, queues: JobQueueList([queue])))
        defer { idle.stop() }
        #expect(idle.exitRequest == .scenarioEnded(incompleteRollbacks: 0), "nothing live, nothing due: it ends at once")
    }
}
