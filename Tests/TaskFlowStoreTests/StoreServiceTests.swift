import Foundation
import Logging
import ServiceLifecycle
@testable import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// The store's workers in a server's `ServiceGroup` (`store.service(workers:)`).
@Suite("Store service")
struct StoreServiceTests {
    private static let logger = Logger(label: "taskflow.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test("a graceful shutdown lets the job in flight finish and commit, and claims nothing new", arguments: StoreFactory.all)
    func gracefulShutdown(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let gate = Gate()
        let ran = Recorder<String>()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            ran.record(greeting.name)
            await gate.wait()
            return .success
        }
        try await store.submit(Greeting(name: "in flight"))
        let group = ServiceGroup(services: [store.service(workers: 1)], logger: Self.logger)
        let running = Task { try await group.run() }
        #expect(await log.waitUntil { $0.contains { $0.name == "started" } })
        await group.triggerGracefulShutdown()
        #expect(await eventually { store.hasBegunStopping })
        try await store.submit(Greeting(name: "late"))
        gate.open()
        try await running.value
        #expect(ran.all == ["in flight"], "nothing was claimed after the shutdown began")
        let left = try await store.jobs()
        #expect(left.map(\.state) == [.pending], "the finished job was committed (deleted), the late one waits")
    }

    @Test("cancelled, it waits for running jobs at most its bound; their leases cover them after")
    func cancelledWithinBound() async throws {
        let clock = TestClock()
        let store = try await StoreFactory.inMemory.makePlace().open(clock: StoreClock(following: clock))
        let log = ChangeLog(store)
        let gate = Gate()
        store.register(Greeting.self, retry: .never) { _, _ in
            await gate.wait()
            return .success
        }
        try await store.submit(Greeting(name: "slow"))
        let running = Task { try await store.service(workers: 1, cancellationBound: .seconds(5)).run() }
        #expect(await log.waitUntil { $0.contains { $0.name == "started" } })
        running.cancel()
        #expect(await clock.waitForSleep(until: clock.now + .seconds(5)), "the bound runs on the store's clock")
        clock.advance(by: .seconds(5))
        try await running.value
        #expect(try await store.jobs().map(\.state) == [.running], "still held under its lease")
        gate.open()
    }
}
