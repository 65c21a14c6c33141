import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowSupport
import TaskFlowTestSupport
import Testing

/// Many durable flows at once, their group children journaling concurrently, cancelled at
/// random moments: each flow ends with every effect applied or none, every revert run once.
@Suite("Durable flows: stress")
struct DurableStressTests {
    @Test("cancels at random moments leave each flow all applied or none, each revert run once", arguments: StoreFactory.local)
    func randomCancels(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let manager = TaskFlowManager()
        let flows = DurableFlows(manager: manager, store: store)
        let world = World()
        flows.registerUnmark(in: world)
        try await flows.recover()
        var generator = SeededGenerator(seed: 0xD0_AB1E)
        let (flowCount, children) = (40, 10)
        let handles = (0..<flowCount).map { index in
            let cancelAfter = Int.random(in: 0...(children + 2), using: &generator)
            let started = Protected(0)
            return flows.execute(title: "flow \(index)") { flow in
                let id = flow.id
                try await flow.group(title: "copies") { group in
                    for child in 0..<children {
                        group.task(title: "copy \(child)", revert: Unmark(name: "\(index).\(child)")) { _ in
                            world.done.record("\(index).\(child)")
                            // The flow cancels itself once this many children ran: at any moment of the group.
                            if started.withLock({ $0 += 1; return $0 }) == cancelAfter { manager.cancel(id) }
                        }
                    }
                }
                try await flow.task(title: "seal", revert: Unmark(name: "\(index).seal")) { _ in
                    world.done.record("\(index).seal")
                }
            }
        }
        var completed = 0
        for (index, handle) in handles.enumerated() {
            let applied = { world.applied.filter { $0.hasPrefix("\(index).") } }
            do {
                try await handle.value
                completed += 1
                #expect(applied().count == children + 1, "flow \(index) completed with \(applied()) marks")
                #expect(try await store.durableFlow(handle.id)?.state == .completed)
            } catch is CancellationError {
                #expect(applied().isEmpty, "flow \(index) left \(applied())")
                #expect(try await store.durableFlow(handle.id)?.state ?? .rolledBack == .rolledBack)
            }
        }
        let undone = world.undone.all
        #expect(Set(undone).count == undone.count, "a revert ran twice")
        #expect(completed > 0 && completed < flowCount, "the seed must give both outcomes: \(completed) of \(flowCount) completed")
    }
}
