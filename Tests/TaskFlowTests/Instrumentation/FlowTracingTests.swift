import InMemoryTracing
import TaskFlow
import TaskFlowTestSupport
import Testing
import Tracing

/// A span per flow (its title; `taskflow.flow.id`, `.access`, `.outcome`), a child per step and
/// per revert, a span per job run. Each test binds a tracer of its own to its task
/// (`withTracer`), so suites running beside it in this process record nothing into it.
@Suite struct FlowTracingTests {
    @Test func aFlowSpanHasItsAttributesAndItsStepsAndRevertsAsChildren() async throws {
        let tracer = InMemoryTracer()
        let manager = TaskFlowManager()
        let flow = withTracer(tracer) {
            manager.execute(title: "traced flow", access: .write) { flow in
                try await flow.task(title: "outer", apply: { task in
                    try await task.task(title: "inner", apply: { _ in }, revert: { _, _ in })
                }, revert: { _, _ in })
                throw Boom()
            }
        }
        await #expect(throws: Boom.self) { try await flow.value }
        let spans = tracer.finishedSpans
        let flowSpan = try #require(spans.first { $0.operationName == "traced flow" })
        #expect(flowSpan.attributes["taskflow.flow.id"]?.toSpanAttribute() == .int64(Int64(flow.id.rawValue)))
        #expect(flowSpan.attributes["taskflow.flow.access"]?.toSpanAttribute() == .string("write"))
        #expect(flowSpan.attributes["taskflow.flow.outcome"]?.toSpanAttribute() == .string("failed"))
        #expect(flowSpan.status?.code == .error)
        let outer = try #require(spans.first { $0.operationName == "outer" })
        let inner = try #require(spans.first { $0.operationName == "inner" })
        #expect(outer.parentSpanID == flowSpan.spanID)
        #expect(inner.parentSpanID == outer.spanID, "a step inside a step is its child")
        let revertOuter = try #require(spans.first { $0.operationName == "revert outer" })
        let revertInner = try #require(spans.first { $0.operationName == "revert inner" })
        #expect(revertOuter.parentSpanID == flowSpan.spanID)
        #expect(revertInner.parentSpanID == revertOuter.spanID, "reverted inside its step's revert")
        #expect(Set(spans.map(\.traceID)).count == 1, "one trace")
    }

    @Test func aFlowSpanIsAChildOfTheSubmittersSpanAndAnUndoLinksToIt() async throws {
        let tracer = InMemoryTracer()
        let manager = TaskFlowManager()
        try await withTracer(tracer) {
            try await tracer.withSpan("request") { _ in
                let flow = manager.execute(title: "child flow", access: .write) { flow in
                    try await flow.task(title: "step", apply: { _ in }, revert: { _, _ in })
                }
                // Only a completed flow can be undone: `undo` on a running one throws.
                try await flow.value
                try await flow.undo()
            }
        }
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "request" })
        let flowSpan = try #require(spans.first { $0.operationName == "child flow" })
        #expect(flowSpan.parentSpanID == request.spanID)
        #expect(flowSpan.attributes["taskflow.flow.outcome"]?.toSpanAttribute() == .string("completed"))
        let undo = try #require(spans.first { $0.operationName == "undo child flow" })
        #expect(undo.attributes["taskflow.flow.outcome"]?.toSpanAttribute() == .string("undone"))
        #expect(undo.links.compactMap(\.context.inMemorySpanContext?.spanID) == [flowSpan.spanID])
        let revert = try #require(spans.first { $0.operationName == "revert step" })
        #expect(revert.parentSpanID == undo.spanID)
    }

    @Test func aJobRunIsASpanChildOfTheContextThatAddedIt() async throws {
        let tracer = InMemoryTracer()
        let queue = JobQueue(title: "traced-queue")
        let value = try await withTracer(tracer) {
            try await tracer.withSpan("adder") { _ in
                try await queue.add(Job(title: "traced job") { _ in 7 }).value
            }
        }
        #expect(value == 7)
        let spans = tracer.finishedSpans
        let adder = try #require(spans.first { $0.operationName == "adder" })
        let job = try #require(spans.first { $0.operationName == "traced job" })
        #expect(job.parentSpanID == adder.spanID)
        #expect(job.attributes["taskflow.job.queue"]?.toSpanAttribute() == .string("traced-queue"))
    }

    @Test func withTheNoOpTracerNothingIsRecorded() async throws {
        let tracer = InMemoryTracer()
        // Submitted outside `withTracer`: the flow is not traced, even if it runs inside one.
        let flow = TaskFlowManager().execute(title: "untraced", access: .read) { _ in }
        try await withTracer(tracer) { try await flow.value }
        #expect(tracer.finishedSpans.isEmpty && tracer.activeSpans.isEmpty)
    }
}
