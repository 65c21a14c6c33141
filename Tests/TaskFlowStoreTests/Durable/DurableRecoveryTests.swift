import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// Durable flows after a restart: what a dead process left is rolled back from the journal,
/// what a live one runs is left alone, a bad journal row stops only its own flow, and a
/// completed flow can still be undone.
@Suite("Durable flows: recovery")
struct DurableRecoveryTests {
    @Test("flows a dead process left roll back last first from the first revert not checkpointed; a live one's are left alone",
          arguments: StoreFactory.durable)
    func recoverInterrupted(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        // A lease of an hour: the flow live elsewhere (its heartbeat written now) stays live
        // however long a loaded machine takes to get to the recovery (30 s were once not enough).
        let store = try await place.open(lease: .seconds(3600))
        let dead = try LeftFlow.deadOwnerHere()
        var interrupted = LeftFlow(id: 1, title: "Copy", owner: dead, marks: ["1.a", "1.b", "1.c"])
        interrupted.steps[0].state = "reverted"
        interrupted.steps[2].state = "failed"
        interrupted.steps.append(LeftFlow.Step(title: "1.d", kind: nil, json: nil))
        var rollingBack = LeftFlow(
            id: 3, title: "Sync", state: "rollingBack", owner: LeftFlow.ownerElsewhere, heartbeat: Date() - 86_400,
            marks: ["3.a", "3.b"])
        rollingBack.steps[1].state = "reverted"
        try await place.leave(
            interrupted,
            LeftFlow(id: 2, title: "Live elsewhere", owner: LeftFlow.ownerElsewhere, marks: ["2.a"]),
            rollingBack,
            LeftFlow(id: 4, title: "Done", state: "completed", owner: dead, marks: ["4.a"]))

        let manager = TaskFlowManager()
        let flows = DurableFlows(manager: manager, store: store)
        let world = World()
        flows.registerUnmark(in: world)
        let log = EventLog(manager)
        let recovered = try await flows.recover()

        #expect(recovered.map(\.id) == [FlowID(1), FlowID(3)])
        #expect(recovered.allSatisfy { $0.isComplete })
        #expect(world.undone.all == ["1.c", "1.b", "3.a"], "last first, checkpointed ones skipped")
        let states = try await [1, 2, 3, 4].asyncMap { try await store.durableFlow(FlowID($0))?.state }
        #expect(states == [.rolledBack, .running, .rolledBack, .completed])
        // The dashboard's view: each recovery is a flow of the manager whose stored steps unwind.
        #expect(await log.waitUntilFinished(recovered[1].rolledBackAs))
        let recovering = log.events
        let titles = recovering.compactMap { if case .flowQueued(let info) = $0 { info.title } else { nil } }
        #expect(titles == ["Recovering #1 Copy", "Recovering #3 Sync"])
        let reverted = recovering.compactMap { if case .stepReverted(_, let step) = $0 { step.title } else { nil } }
        #expect(reverted == ["1.d", "1.c", "1.b", "3.a"])
        // New flows take ids no journaled flow has.
        let next = flows.execute(title: "Next") { _ in }
        try await next.value
        #expect(next.id > FlowID(4))
    }

    @Test("a completed flow is undone after reopening the store, once", arguments: StoreFactory.durable)
    func undoAfterRestart(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let world = World()
        let id: FlowID
        do {
            let flows = DurableFlows(manager: TaskFlowManager(), store: try await place.open())
            flows.registerUnmark(in: world)
            try await flows.recover()
            let flow = flows.execute(title: "Mark twice") { flow in
                try await flow.task(title: "first", revert: Unmark(name: "first")) { _ in world.done.record("first") }
                try await flow.task(title: "second", revert: Unmark(name: "second")) { _ in world.done.record("second") }
            }
            try await flow.value
            id = flow.id
        }
        let store = try await place.open()
        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        flows.registerUnmark(in: world)
        #expect(try await flows.recover().isEmpty, "a completed flow is not interrupted")
        try await flows.undo(id)
        #expect(world.undone.all == ["second", "first"])
        #expect(try await store.durableFlow(id)?.state == .undone)
        await #expect(throws: DurableFlowError.noSuchFlow(id, needs: "completed")) { try await flows.undo(id) }
        #expect(world.undone.all.count == 2)
    }

    @Test("an undecodable revert or a kind without a handler stops its flow's rollback with the reason; other flows recover",
          arguments: StoreFactory.durable)
    func badRows(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let dead = try LeftFlow.deadOwnerHere()
        var undecodable = LeftFlow(id: 1, title: "Undecodable", owner: dead, marks: ["1.a", "1.b", "1.c"])
        undecodable.steps[1].json = #"{"nom":"1.b","password":"hunter2"}"#
        let unknown = LeftFlow(id: 2, title: "Unknown kind", owner: dead, steps: [LeftFlow.Step(title: "2.a", kind: "nobody", json: "{}")])
        try await place.leave(undecodable, unknown, LeftFlow(id: 3, title: "Fine", owner: dead, marks: ["3.a"]))

        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        let world = World()
        flows.registerUnmark(in: world)
        let recovered = try await flows.recover()
        #expect(recovered.map(\.isComplete) == [false, false, true])
        #expect(world.undone.all == ["1.c", "3.a"], "the rollback of flow 1 stopped at its bad step")

        let first = try #require(try await store.durableFlow(FlowID(1)))
        #expect(first.state == .rollbackIncomplete)
        #expect(first.reason?.contains("does not decode as \"unmark\"") == true, "\(first.reason ?? "no reason")")
        #expect(first.steps.map(\.state) == ["pending", "failed", "reverted"])
        #expect(first.steps[1].revert?.contains("hunter2") == false, "a secret in a revert is never shown")
        let second = try #require(try await store.durableFlow(FlowID(2)))
        #expect(second.state == .rollbackIncomplete)
        #expect(second.reason?.contains("no handler registered for kind \"nobody\"") == true)

        // Once a handler is there, a person retries.
        let nobody = Recorder<String>()
        flows.register(Nobody.self) { _ in nobody.record("ran") }
        #expect(try await flows.retryRollback(FlowID(2)).isComplete)
        #expect(nobody.all == ["ran"])
        #expect(try await store.durableFlow(FlowID(2))?.state == .rolledBack)
    }
}

/// The kind no handler was registered for at first.
private struct Nobody: StoredRevert {
    static let kind = "nobody"
}

extension LeftFlow {
    init(id: Int, title: String, owner: String, steps: [Step]) {
        self.init(id: id, title: title, owner: owner, marks: [])
        self.steps = steps
    }
}

extension Sequence {
    /// `transform` of each element, one after another.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

/// The journal keeps what undo may need, and not more.
@Suite("Durable flows: pruning")
struct DurablePruningTests {
    @Test("rolled-back flows never push a completed flow out of the journal; newer completions do", arguments: StoreFactory.durable)
    func completedFlowsAreCountedApart(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let flows = DurableFlows(manager: TaskFlowManager(undoHistoryLimit: 2), store: store)
        flows.registerUnmark(in: World())
        try await flows.recover()
        func run(_ name: String, failing: Bool) async -> FlowID {
            let flow = flows.execute(title: name) { flow in
                try await flow.task(title: name, revert: Unmark(name: name)) { _ in }
                if failing { throw Boom("\(name) fails") }
            }
            _ = try? await flow.value
            return flow.id
        }
        let kept = await run("kept", failing: false)
        for index in 0..<3 { _ = await run("failed \(index)", failing: true) }
        #expect(try await store.durableFlow(kept)?.state == .completed, "three rollbacks after it, it is still undoable")
        _ = await run("newer 1", failing: false)
        #expect(try await store.durableFlow(kept) != nil)
        _ = await run("newer 2", failing: false)
        #expect(try await store.durableFlow(kept) == nil, "two newer completions pushed it out, as out of the undo history")
        #expect(try await store.durableFlows().count == 4, "two completed and two rolled back kept")
    }
}
