import CoreMetrics
import MetricsTestKit
import TaskFlow
import TaskFlowTestSupport
import Testing

/// `taskflow.flows`, `taskflow.flow.duration`, `taskflow.lock.wait`, `taskflow.jobs` and
/// `taskflow.job.duration` with DESIGN §9's labels and dimensions. Each test binds a factory of
/// its own to its task (`withMetricsFactory`), so suites running beside it in this process
/// neither see its values nor add to them.
@Suite struct FlowMetricsTests {
    @Test func eachFlowOutcomeIsCountedWithItsAccessAndTimed() async throws {
        let metrics = TestMetrics()
        let manager = TaskFlowManager()
        try await withMetricsFactory(metrics) {
            let completed = manager.execute(title: "completes", access: .write) { flow in
                try await flow.task(title: "step", apply: { _ in 1 }, revert: { _, _ in })
            }
            _ = try await completed.value
            try await manager.execute(title: "reads", access: .read) { _ in }.value
            let failed = manager.execute(title: "fails", access: .write) { _ in throw Boom() }
            await #expect(throws: Boom.self) { try await failed.value }
            let cancelled = manager.execute(title: "cancelled", access: .read) { _ in throw CancellationError() }
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            let incomplete = manager.execute(title: "rollback incomplete", access: .write) { flow in
                try await flow.task(title: "undoable", apply: { _ in }, revert: { _, _ in throw Boom("revert") })
                throw Boom()
            }
            await #expect(throws: (any Error).self) { try await incomplete.value }
            try await completed.undo()
        }
        func count(_ access: String, _ outcome: String) throws -> Int64 {
            try metrics.expectCounter("taskflow.flows", [("access", access), ("outcome", outcome)]).totalValue
        }
        #expect(try count("write", "completed") == 1)
        #expect(try count("read", "completed") == 1)
        #expect(try count("write", "failed") == 1)
        #expect(try count("read", "cancelled") == 1)
        #expect(try count("write", "rollback_incomplete") == 1)
        #expect(try count("write", "undone") == 1)
        #expect(try count("read", "failed") == 0)
        // One duration per flow that ended (an undo is not a flow's end); one wait per lock taken.
        #expect(try metrics.expectTimer("taskflow.flow.duration", [("access", "write")]).values.count == 3)
        #expect(try metrics.expectTimer("taskflow.flow.duration", [("access", "read")]).values.count == 2)
        #expect(try metrics.expectTimer("taskflow.lock.wait", [("access", "write")]).values.count == 4)
        #expect(try metrics.expectTimer("taskflow.lock.wait", [("access", "read")]).values.count == 2)
        #expect(try metrics.expectTimer("taskflow.flow.duration", [("access", "write")]).values.allSatisfy { $0 >= 0 })
    }

    @Test func aFlowCancelledWhileWaitingForTheLockIsCountedCancelled() async throws {
        let metrics = TestMetrics()
        let manager = TaskFlowManager()
        let gate = Gate()
        try await withMetricsFactory(metrics) {
            let holder = manager.execute(title: "holds the lock", access: .write) { _ in await gate.wait() }
            let waiting = manager.execute(title: "waits", access: .write) { _ in }
            #expect(await eventually { waiting.status.phase == .waiting })
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            gate.open()
            try await holder.value
        }
        #expect(try metrics.expectCounter("taskflow.flows", [("access", "write"), ("outcome", "cancelled")]).totalValue == 1)
        #expect(try metrics.expectTimer("taskflow.lock.wait", [("access", "write")]).values.count == 1, "only the flow that got it")
    }

    @Test func jobsAreCountedByQueueAndOutcomeAndTimed() async throws {
        let metrics = TestMetrics()
        let queue = JobQueue(title: "metrics-queue", maxConcurrent: 1)
        try await withMetricsFactory(metrics) {
            _ = try await queue.add(Job(title: "ok") { _ in 1 }).value
            let failing = queue.add(Job<Int>(title: "fails") { _ in throw Boom() })
            await #expect(throws: Boom.self) { try await failing.value }
            let dependent = queue.add(Job(title: "never runs") { _ in 2 }, after: [failing])
            await #expect(throws: JobError.self) { try await dependent.value }
            queue.pause()
            let cancelled = queue.add(Job(title: "cancelled while waiting") { _ in 3 })
            cancelled.cancel()
            await #expect(throws: (any Error).self) { try await cancelled.value }
            queue.resume()
        }
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("taskflow.jobs", [("queue", "metrics-queue"), ("outcome", outcome)]).totalValue
        }
        #expect(try count("succeeded") == 1)
        #expect(try count("failed") == 2, "the failed run and the job its failure stopped")
        #expect(try count("cancelled") == 1)
        #expect(try metrics.expectTimer("taskflow.job.duration", [("queue", "metrics-queue")]).values.count == 2, "runs only")
    }
}
