import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowSupport
import TaskFlowTestSupport
import Testing

/// Durable flows in one process: stored reverts journaled before their step, run by rollbacks
/// and undos in the engine's order, checkpointed, and the journal's record of each flow's end.
@Suite("Durable flows")
struct DurableFlowTests {
    /// DESIGN §8's contract, as written there.
    @Test("the contract compiles and a cancelled flow's stored revert runs", arguments: StoreFactory.local)
    func contract(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let manager = TaskFlowManager()
        let deleted = Recorder<String>()
        let flows = DurableFlows(manager: manager, store: store)
        flows.register(DeletePhoto.self) { revert in deleted.record(revert.key) }
        let recovered = try await flows.recover()
        #expect(recovered.isEmpty)
        let (uploaded, gate) = (Recorder<String>(), Gate())
        let flow = flows.execute(title: "Publish", access: .write) { flow in
            let key = "photos/\(UUID())"
            try await flow.task(title: "Upload", revert: DeletePhoto(key: key)) { task in
                uploaded.record(key)
            }
            try await flow.main(apply: {}, revert: { _ in })
            await gate.wait()
            try await flow.task(title: "Never runs") { _ in Issue.record("ran after the cancel") }
            return key
        }
        try #require(await eventually { uploaded.all.count == 1 })
        flow.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(deleted.all == uploaded.all)
        let journaled = try #require(try await store.durableFlow(flow.id))
        #expect(journaled.state == .rolledBack)
        #expect(journaled.steps.map(\.state) == ["reverted"])
        await #expect(throws: DurableFlowError.noSuchFlow(flow.id, needs: "completed")) { try await flows.undo(flow.id) }
    }

    @Test("stored and in-memory reverts run last first, nested ones before their step's, and apply's throw reverts its own step")
    func ordering() async throws {
        let store = try JobStore.inMemory()
        let manager = TaskFlowManager(state: [String]())
        let flows = DurableFlows(manager: manager, store: store)
        let world = World()
        flows.registerUnmark(in: world)
        try await flows.recover()
        let order = Recorder<String>()
        flows.register(Forget.self, retry: .never) { order.record("stored forget \($0.key)") }
        flows.register(Unmark.self, retry: .never) { order.record("stored \($0.name)") }
        let flow = flows.execute(title: "Mixed") { flow in
            try await flow.main(apply: {}, revert: { _ in order.record("main 1") })
            try await flow.task(title: "A", revert: Unmark(name: "A")) { task in
                try await task.main(apply: {}, revert: { _ in order.record("main inside A") })
                try await task.task(title: "A.1", revert: Unmark(name: "A.1")) { _ in }
            }
            try await flow.update { $0.append("x") }
            try await flow.task(title: "B", apply: { _ in 7 }, storedRevert: { Forget(key: $0) })
            try await flow.task(title: "C", revert: Unmark(name: "C")) { task in
                try await task.task(title: "C.1", revert: Unmark(name: "C.1")) { _ in }
                throw Boom("C failed half-way")
            }
        }
        await #expect(throws: Boom.self) { try await flow.value }
        #expect(order.all == [
            "stored C.1", "stored C", "stored forget 7", "stored A.1", "main inside A", "stored A", "main 1",
        ])
        #expect(manager.state.isEmpty, "the update was reverted between B and A")
        let journaled = try #require(try await store.durableFlow(flow.id))
        #expect(journaled.state == .rolledBack)
        #expect(journaled.steps.map(\.title) == ["A", "A.1", "B", "C", "C.1"], "journal order: each step before what it runs")
        #expect(journaled.steps.allSatisfy { $0.state == "reverted" })
    }

    @Test("a group's children journal and run at once; a failing child rolls back its siblings' stored reverts")
    func groups() async throws {
        let store = try JobStore.inMemory()
        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        let world = World()
        flows.registerUnmark(in: world)
        try await flows.recover()
        let flow = flows.execute(title: "Copy many") { flow in
            try await flow.group(title: "copies") { group in
                for index in 0..<8 {
                    group.task(title: "copy \(index)", revert: Unmark(name: "\(index)")) { _ in
                        world.done.record("\(index)")
                    }
                }
            }
            try await flow.task(title: "fail", revert: Unmark(name: "fail")) { _ in throw Boom("late") }
        }
        await #expect(throws: Boom.self) { try await flow.value }
        #expect(world.applied.isEmpty)
        #expect(Set(world.undone.all) == Set((0..<8).map(String.init) + ["fail"]))
        let journaled = try #require(try await store.durableFlow(flow.id))
        #expect(journaled.steps.count == 9)
        #expect(journaled.state == .rolledBack)
    }

    @Test("completion is in the journal before it is announced, and undo runs the stored reverts")
    func completionAndUndo() async throws {
        let store = try JobStore.inMemory()
        let manager = TaskFlowManager()
        let flows = DurableFlows(manager: manager, store: store)
        let world = World()
        flows.registerUnmark(in: world)
        try await flows.recover()
        let seen = Recorder<DurableFlowState?>()
        let events = manager.events
        let flow = flows.execute(title: "Mark") { flow in
            try await flow.task(title: "mark", revert: Unmark(name: "m")) { _ in world.done.record("m") }
        }
        for await event in events {
            guard case .statusChanged(flow.id, .completed) = event else { continue }
            seen.record(try await store.durableFlow(flow.id)?.state)
            break
        }
        #expect(seen.all == [.completed])
        try await flows.undo(flow.id)
        #expect(world.applied.isEmpty)
        #expect(try await store.durableFlow(flow.id)?.state == .undone)
    }

    @Test("a revert that fails is retried by its policy; one that keeps failing leaves the flow for a person to retry")
    func failingReverts() async throws {
        let store = try JobStore.inMemory()
        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        let failuresLeft = Protected(4)
        let undone = Recorder<String>()
        flows.register(Unmark.self, retry: .immediate(maxAttempts: 3)) { revert in
            if failuresLeft.withLock({ left in defer { left -= 1 }; return left > 0 }) { throw Boom("disk busy") }
            undone.record(revert.name)
        }
        try await flows.recover()
        let flow = flows.execute(title: "Two marks") { flow in
            try await flow.task(title: "first", revert: Unmark(name: "first")) { _ in }
            try await flow.task(title: "second", revert: Unmark(name: "second")) { _ in }
            throw Boom("give up")
        }
        await #expect(throws: RollbackIncompleteError.self) { try await flow.value }
        // "second" failed 3 times (its policy's limit); "first" failed once more, then ran.
        #expect(undone.all == ["first"])
        let journaled = try #require(try await store.durableFlow(flow.id))
        #expect(journaled.state == .rollbackIncomplete)
        #expect(journaled.reason?.contains("disk busy") == true)
        #expect(journaled.steps.map(\.state) == ["reverted", "failed"])

        let retried = try await flows.retryRollback(flow.id)
        #expect(retried.isComplete)
        #expect(undone.all == ["first", "second"], "only the revert not checkpointed ran again")
        #expect(try await store.durableFlow(flow.id)?.state == .rolledBack)
    }

    @Test("a stored revert outside a durable flow, or of a kind nobody registered, is refused before its step runs")
    func refusals() async throws {
        let store = try JobStore.inMemory()
        let manager = TaskFlowManager()
        let flows = DurableFlows(manager: manager, store: store)
        try await flows.recover()
        let ran = Recorder<String>()
        let plain = manager.execute(title: "Plain") { flow in
            try await flow.task(title: "stored", revert: Unmark(name: "x")) { _ in ran.record("plain") }
        }
        await #expect(throws: DurableFlowError.notDurable(step: "stored")) { try await plain.value }
        let unregistered = flows.execute(title: "Unregistered") { flow in
            try await flow.task(title: "stored", revert: Unmark(name: "x")) { _ in ran.record("unregistered") }
        }
        await #expect(throws: DurableFlowError.noHandler(kind: "unmark", step: "stored")) { try await unregistered.value }
        #expect(ran.all.isEmpty)
    }
}

struct DeletePhoto: StoredRevert {
    static let kind = "delete-photo"
    let key: String
}
