import Testing
import TaskFlow
import TaskFlowTestSupport

/// Finished flows must not hold on to what their steps captured, except while they can still
/// be undone.
@Suite struct MemoryTests {
    /// Something a revert captures; a weak reference tells whether anything still holds it.
    final class Payload: Sendable {}

    /// Runs one write flow whose reverts capture a fresh payload, failing at the end if asked;
    /// returns a weak handle to the payload once the flow has ended.
    func runFlow(_ manager: TaskFlowManager<Void>, title: String, failing: Bool = false) async -> () -> Payload? {
        let payload = Payload()
        weak let weakPayload = payload
        let flow = manager.execute(title: title) { flow in
            try await flow.task(title: "capture", apply: { _ in }, revert: { _, _ in _ = payload })
            try await flow.main(title: "capture on main", apply: {}, revert: { _ in _ = payload })
            if failing { throw Boom() }
        }
        _ = await flow.finished()
        return { weakPayload }
    }

    @Test func aFinishedFlowWithoutUndoReleasesItsReverts() async throws {
        let manager = TaskFlowManager(undoHistoryLimit: 0)
        let payload = await runFlow(manager, title: "not kept")
        #expect(payload() == nil)
    }

    @Test func aFlowLeavingTheUndoHistoryReleasesItsReverts() async throws {
        let manager = TaskFlowManager(undoHistoryLimit: 1)
        let first = await runFlow(manager, title: "first")
        #expect(first() != nil, "kept while it can be undone")
        let second = await runFlow(manager, title: "second")
        #expect(first() == nil, "released once a newer flow pushed it out")
        #expect(second() != nil)
    }

    @Test func aRolledBackFlowReleasesItsReverts() async throws {
        let manager = TaskFlowManager()
        let payload = await runFlow(manager, title: "fails", failing: true)
        #expect(payload() == nil)
    }

    @Test func releasingTheManagerFreesItsUndoHistoryAndEndsObservers() async throws {
        let ended = Recorder<Bool>()
        let payload = try await { () async throws -> () -> Payload? in
            let manager = TaskFlowManager(undoHistoryLimit: 100)
            let stream = manager.events
            Task { for await _ in stream {}; ended.record(true) }
            return await runFlow(manager, title: "kept for undo")
        }()
        #expect(await eventually { payload() == nil }, "the undo history went with the manager")
        #expect(await eventually { !ended.all.isEmpty }, "the observer's loop ended")
    }
}
