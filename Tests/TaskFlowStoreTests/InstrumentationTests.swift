import Foundation
import InMemoryTracing
import MetricsTestKit
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport
import Testing
import Tracing
import CoreMetrics

/// `taskflow.store.jobs` by kind and outcome, and a stored job's run span linked, across the
/// store, to the span that submitted it. The factory and the tracer are bound to the test's
/// task (the workers' tasks inherit them from `start`), so no other suite sees them.
@Suite("Instrumentation")
struct StoreInstrumentationTests {
    @Test("each committed outcome is counted by kind", arguments: StoreFactory.all)
    func outcomesCounted(factory: StoreFactory) async throws {
        let metrics = TestMetrics()
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        // The troubled job's first run is retried, its second parks, its third fails for good.
        let runs = Recorder<String>()
        store.register(Greeting.self, retry: .immediate(maxAttempts: 5)) { greeting, _ in
            guard greeting.name == "troubled" else { return .success }
            runs.record(greeting.name)
            switch runs.all.count {
            case 1: return .retry(Boom())
            case 2: return .retryWhenReady
            default: return .fail(Boom())
            }
        }
        try await withMetricsFactory(metrics) {
            try await store.submit(Greeting(name: "ok"))
            let id = try await store.submit(Greeting(name: "troubled"))
            try await store.start(workers: 1)
            #expect(await log.waitUntil { $0.contains(.parked(id, kind: Greeting.kind)) })
            store.conditionsChanged()
            #expect(await log.waitForEnds(2))
            await store.stop()
        }
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("taskflow.store.jobs", [("kind", Greeting.kind), ("outcome", outcome)]).totalValue
        }
        #expect(try count("succeeded") == 1)
        #expect(try count("retried") == 1)
        #expect(try count("parked") == 1)
        #expect(try count("failed") == 1)
    }

    @Test("a dead worker's job queued again is counted as recovered, then as what its run ends in",
          arguments: StoreFactory.durable)
    func recoveryCounted(factory: StoreFactory) async throws {
        let metrics = TestMetrics()
        let place = try await factory.makePlace()
        let store = try await place.open(lease: .seconds(3600))
        let id = try await store.submit(Greeting(name: "ana"))
        try await place.markClaimedByDeadWorker(id)
        let log = ChangeLog(store)
        _ = store.registerGreeting()
        try await withMetricsFactory(metrics) {
            try await store.start(workers: 1)
            #expect(await log.waitForEnds(1))
            await store.stop()
        }
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("taskflow.store.jobs", [("kind", Greeting.kind), ("outcome", outcome)]).totalValue
        }
        #expect(try count("recovered") == 1)
        #expect(try count("succeeded") == 1)
    }

    @Test("a stored job's run span links to the span that submitted it", arguments: StoreFactory.durable)
    func runLinkedToSubmitter(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let submitter = InMemoryTracer()
        // Submitted by one store (a process), run by another with a tracer of its own.
        let submitting = try await place.open()
        let submitSpan = try await withTracer(submitter) {
            try await submitter.withSpan("submit request") { span in
                _ = try await submitting.submit(Greeting(name: "ana"))
                return span.context.inMemorySpanContext
            }
        }
        let runner = InMemoryTracer()
        let running = try await place.open()
        let log = ChangeLog(running)
        _ = running.registerGreeting()
        try await withTracer(runner) {
            try await running.start(workers: 1)
            #expect(await log.waitForEnds(1))
            await running.stop()
        }
        let run = try #require(runner.finishedSpans.first { $0.operationName == Greeting.kind })
        #expect(run.kind == .consumer)
        #expect(run.links.map(\.context.inMemorySpanContext?.spanID) == [submitSpan?.spanID])
        #expect(run.links.map(\.context.inMemorySpanContext?.traceID) == [submitSpan?.traceID])
        #expect(run.attributes["taskflow.job.kind"]?.toSpanAttribute() == .string(Greeting.kind))
    }
}
