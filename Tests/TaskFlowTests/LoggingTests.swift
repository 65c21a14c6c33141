import Logging
import TaskFlow
import TaskFlowTestSupport
import Testing

/// A manager's logger (`TaskFlowManager(logger:)`): what a server's operator reads, at the levels
/// they expect, each record naming its flow.
@Suite struct LoggingTests {
    @Test func aRetriedStepIsInfoAndAFailedRollbackIsAnErrorEachNamingTheFlowAndTheStep() async throws {
        let log = CapturedLog()
        let manager = TaskFlowManager(logger: log.logger)
        let attempts = Recorder<Int>()
        let flow = manager.execute(title: "Publish photos") { flow in
            try await flow.main(title: "Reserve", apply: {}, revert: { _ in throw Boom("disk gone") })
            try await flow.task(title: "Upload", retry: .immediate(maxAttempts: 2)) { _ in
                attempts.record(attempts.all.count + 1)
                if attempts.all.count == 1 { throw Boom("timeout") }
            }
            throw Boom("quota")
        }
        await #expect(throws: RollbackIncompleteError.self) { try await flow.value }

        let id = "\(flow.id.rawValue)"
        let retry = try #require(log.entries(startingWith: "step retrying").first)
        #expect(retry.level == .info)
        #expect(retry["taskflow.flow.id"] == id && retry["taskflow.flow.title"] == "Publish photos")
        #expect(retry["taskflow.step.title"] == "Upload" && retry["taskflow.flow.access"] == "write")
        #expect(retry.message.description.contains("attempt 2/2") && retry.message.description.contains("Boom(timeout)"))

        let revert = try #require(log.entries(startingWith: "revert failed").first)
        #expect(revert.level == .error && revert["taskflow.step.title"] == "Reserve" && revert["taskflow.flow.id"] == id)
        let ended = try #require(log.entries(startingWith: "flow rollback incomplete").first)
        #expect(ended.level == .error && ended["taskflow.flow.title"] == "Publish photos")
        #expect(log.entries.filter { $0.level >= .info }.count == 3, "nothing else at info or above: steps are debug and trace")
        #expect(!log.entries(startingWith: "step completed").isEmpty, "steps are logged, at debug")
    }

    @Test func aCancelledFlowIsInfoAFailedOneAWarningAndACompletedOneDebug() async throws {
        let log = CapturedLog()
        let manager = TaskFlowManager(logger: log.logger)
        let gate = Gate()
        let cancelled = manager.execute(title: "Sync") { flow in
            try await flow.main(title: "Hold", apply: {}, revert: { _ in })
            await gate.wait()
            try Task.checkCancellation()
        }
        cancelled.cancel()
        gate.open()
        _ = try? await cancelled.value
        let failed = manager.execute(title: "Import") { _ in throw Boom("bad row") }
        _ = try? await failed.value
        try await manager.execute(title: "Export") { _ in }.value

        func final(_ id: FlowID) -> CapturedLog.Entry? {
            log.entries.last { $0["taskflow.flow.id"] == "\(id.rawValue)" && $0.message.description.hasPrefix("flow ") }
        }
        #expect(final(cancelled.id)?.level == .info && final(cancelled.id)?.message.description == "flow cancelled")
        #expect(final(failed.id)?.level == .warning && final(failed.id)?.message.description == "flow failed: Boom(bad row)")
        #expect(final(FlowID(3))?.level == .debug && final(FlowID(3))?.message.description == "flow completed")
    }

    @Test func aTitleCannotForgeALogLineAndALevelAboveDropsEverythingBelow() async throws {
        let log = CapturedLog(level: .info)
        let manager = TaskFlowManager(logger: log.logger)
        try? await manager.execute(title: "Evil\nflow cancelled") { _ in throw CancellationError() }.value
        #expect(log.entries.count == 1, "only the cancel, at info: debug and trace records are never made")
        #expect(log.entries.first?["taskflow.flow.title"] == "Evil\\u{A}flow cancelled")
    }

    @Test func aQueuedJobsRetryIsInfoAndItsFailureAWarningNamingQueueAndJob() async throws {
        let log = CapturedLog()
        let queue = JobQueue(title: "Uploads", logger: log.logger)
        let job = Job<Void>(title: "Upload avatar") { _ in throw Boom("offline") }.retry(.immediate(maxAttempts: 2))
        let handle = queue.add(job)
        await #expect(throws: Boom.self) { try await handle.value }

        let retry = try #require(log.entries(startingWith: "job retrying").first)
        #expect(retry.level == .info && retry.message.description == "job retrying: attempt 2/2 in 0.0 seconds: Boom(offline)")
        #expect(retry["taskflow.queue"] == "Uploads" && retry["taskflow.job.title"] == "Upload avatar")
        #expect(retry["taskflow.job.id"] == "\(handle.id.rawValue)")
        let failed = try #require(log.entries(startingWith: "job failed").first)
        #expect(failed.level == .warning && failed["taskflow.job.title"] == "Upload avatar" && failed["taskflow.queue"] == "Uploads")
        #expect(log.entries.filter { $0.level >= .info }.count == 2, "added and started are debug")
    }
}
