import Testing
import TaskFlow
import TaskFlowTestSupport

/// A refused undo leaves the undo history exactly as it was.
@Suite struct UndoHistoryOrderTests {
    /// Completes a write flow that appends `item` to the state.
    private func append(_ item: String, in manager: TaskFlowManager<[String]>) async throws -> TaskFlow<Void> {
        let flow = manager.execute(title: item) { flow in try await flow.update { $0.append(item) } }
        try await flow.value
        return flow
    }

    @Test func aRefusedUndoKeepsTheFlowsPlaceInTheHistory() async throws {
        let manager = TaskFlowManager(state: [String]())
        let a = try await append("A", in: manager)
        let b = try await append("B", in: manager)
        let c = try await append("C", in: manager)
        #expect(manager.snapshot().undoable.map(\.title) == ["A", "B", "C"])

        await #expect(throws: FlowError.stateChangedSince(flow: a.info)) { try await a.undo() }
        #expect(manager.snapshot().undoable.map(\.title) == ["A", "B", "C"], "oldest first, as before")
        #expect(a.status.phase == .completed)
        #expect(manager.state == ["A", "B", "C"])

        try await c.undo()
        try await b.undo()
        try await a.undo()
        #expect(manager.state == [])
        #expect(manager.snapshot().undoable.isEmpty)
    }

    @Test func aFlowWhoseUndoWasRefusedIsStillTheFirstToLeaveAFullHistory() async throws {
        let manager = TaskFlowManager(state: [String](), undoHistoryLimit: 2)
        let a = try await append("A", in: manager)
        let b = try await append("B", in: manager)
        await #expect(throws: FlowError.stateChangedSince(flow: a.info)) { try await a.undo() }
        _ = try await append("C", in: manager)
        #expect(manager.snapshot().undoable.map(\.title) == ["B", "C"])
        await #expect(throws: FlowError.undoHistoryExpired(flow: a.info, limit: 2)) { try await a.undo() }
        #expect(b.status.phase == .completed)
    }
}
