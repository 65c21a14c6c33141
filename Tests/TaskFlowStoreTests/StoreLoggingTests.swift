import Foundation
import Logging
import TaskFlow
@testable import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// The store's logger (`JobStoreOptions.logger`): what a server's operator reads about its jobs
/// and durable flows, at the levels they expect, each record naming its job or flow.
@Suite("Logging")
struct StoreLoggingTests {
    @Test("a retry is info, a job failed for good an error, each with the job's id and kind",
          arguments: StoreFactory.durable)
    func retryAndFailure(factory: StoreFactory) async throws {
        let log = CapturedLog()
        let store = try await factory.makePlace().open(logger: log.logger)
        let changes = ChangeLog(store)
        store.register(Greeting.self, retry: .immediate(maxAttempts: 2)) { _, _ in .retry(Boom("smtp down")) }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 1)
        #expect(await changes.waitForEnds(1))
        await store.stop()

        let retry = try #require(log.entries.first { $0.message.description.contains("retry 1") })
        #expect(retry.level == .info && retry["taskflow.job.id"] == "\(id.rawValue)" && retry["taskflow.job.kind"] == "greeting")
        let failed = try #require(log.entries.first { $0.message.description.contains("failed: gave up after 2 runs") })
        #expect(failed.level == .error && failed["taskflow.job.id"] == "\(id.rawValue)" && failed["taskflow.job.kind"] == "greeting")
        let loud = log.entries.filter { $0.level >= .info }
        #expect(loud.count == 2, "submitted and started are debug: \(loud.map { "\($0.level) \($0.message)" })")
    }

    /// A stop that cut the heartbeat's write short logged `recording the heartbeat:
    /// CancellationError()` as an error (seen in CI): a lease of 3 ms beats every millisecond,
    /// so most of these stops land on a write.
    @Test("stopping is silent, even in the middle of a heartbeat", arguments: StoreFactory.durable)
    func stopMidHeartbeat(factory: StoreFactory) async throws {
        let log = CapturedLog()
        let place = try await factory.makePlace()
        for _ in 0..<50 {
            let store = try await place.open(lease: .milliseconds(3), logger: log.logger)
            _ = store.registerGreeting()
            try await store.start(workers: 1)
            await Task.yield()
            await store.stop()
        }
        let loud = log.entries.filter { $0.level >= .info }
        #expect(loud.isEmpty, "\(loud.count) records, the first: \(loud.prefix(3).map { "\($0.level) \($0.message)" })")
    }

    @Test("a job recovered from a dead process is a notice", arguments: StoreFactory.durable)
    func recoveredJob(factory: StoreFactory) async throws {
        let log = CapturedLog()
        let place = try await factory.makePlace()
        let store = try await place.open(lease: .seconds(3600), logger: log.logger)
        let id = try await store.submit(Greeting(name: "ana"))
        try await place.markClaimedByDeadWorker(id)
        let changes = ChangeLog(store)
        _ = store.registerGreeting()
        try await store.start(workers: 1)
        #expect(await changes.waitForEnds(1))
        await store.stop()

        let recovered = try #require(log.entries.first { $0.message.description.contains("recovered") })
        #expect(recovered.level == .notice)
        #expect(recovered["taskflow.job.id"] == "\(id.rawValue)" && recovered["taskflow.job.kind"] == "greeting")
    }

    @Test("a durable flow recovered from a dead process is a notice naming the flow", arguments: StoreFactory.durable)
    func recoveredDurableFlow(factory: StoreFactory) async throws {
        let log = CapturedLog()
        let place = try await factory.makePlace()
        let store = try await place.open(logger: log.logger)
        try await place.leave(LeftFlow(id: 7, title: "Copy\nphotos", owner: try LeftFlow.deadOwnerHere(), marks: ["a"]))
        let flows = DurableFlows(manager: TaskFlowManager(), store: store)
        flows.registerUnmark(in: World())
        #expect(try await flows.recover().map(\.id) == [FlowID(7)])

        let notices = log.entries.filter { $0.level == .notice }
        #expect(notices.count == 1)
        #expect(notices.first?.message.description.hasPrefix("durable flow recovered") == true)
        #expect(notices.first?["taskflow.flow.id"] == "7" && notices.first?["taskflow.flow.title"] == "Copy\\u{A}photos")
    }
}
