import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// A process proves its durable flows alive to processes on other hosts by a heartbeat in the
/// journal, every third of the store's lease, for as long as a flow is under way.
@Suite("Durable flows: heartbeat")
struct DurableHeartbeatTests {
    @Test("a running flow's heartbeat moves on every third of the lease, and stops once the flow ended",
          arguments: StoreFactory.durable)
    func heartbeat(factory: StoreFactory) async throws {
        let clock = TestClock()
        let time = StoreClock(following: clock)
        let store = try await factory.makePlace().open(lease: .seconds(30), clock: time)
        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        flows.registerUnmark(in: World())
        try await flows.recover()
        let (journaled, gate) = (Gate(), Gate())
        let start = clock.now
        let flow = flows.execute(title: "Long") { flow in
            try await flow.task(title: "mark", revert: Unmark(name: "a")) { _ in }
            journaled.open()
            await gate.wait()
        }
        await journaled.wait()
        #expect(isSameTime(try await store.durableFlow(flow.id)?.heartbeatAt, time.date(at: start)))
        for beat in 1...2 {
            let tick = start + .seconds(10 * beat)
            #expect(await clock.waitForSleep(until: tick), "the heartbeat waits a third of the lease: \(clock.pendingSleeps)")
            clock.advance(to: tick)
            #expect(await eventually {
                isSameTime((try? await store.durableFlow(flow.id))?.heartbeatAt, time.date(at: tick))
            }, "beat \(beat)")
        }
        gate.open()
        try await flow.value
        let completedAt = try #require(try await store.durableFlow(flow.id)?.heartbeatAt)
        let tick = start + .seconds(30)
        #expect(await clock.waitForSleep(until: tick))
        clock.advance(to: tick)
        // The loop wakes and, with no flow under way, writes nothing: its next sleep shows it passed.
        #expect(await clock.waitForSleep(until: tick + .seconds(10)))
        #expect(try await store.durableFlow(flow.id)?.heartbeatAt == completedAt)
    }
}
