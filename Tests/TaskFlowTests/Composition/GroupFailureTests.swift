import Testing
import TaskFlow
import TaskFlowTestSupport

/// A group whose children stop on a cancel while a sibling fails for real reports the failure:
/// a failure is never hidden as a cancel.
@Suite struct GroupFailureTests {
    @Test func aRealFailureAfterASiblingStoppedOnTheCancelWins() async throws {
        let manager = TaskFlowManager()
        let (photoIn, videoIn, stopped) = (Gate(), Gate(), Gate())
        let flow = manager.execute(title: "upload", access: .write) { flow in
            try await flow.group(title: "media") { group in
                group.task(title: "photo") { task in
                    photoIn.open()
                    _ = await eventually { task.isCancelled }
                    stopped.open()
                    throw CancellationError()
                }
                group.task(title: "video") { _ in
                    videoIn.open()
                    await stopped.wait()
                    // Let the sibling's cancellation reach the group first: the order that hid
                    // the failure.
                    for _ in 0..<100 { await Task.yield() }
                    throw Boom("disk full")
                }
            }
        }
        // Both children must have started: a child not yet started when the cancel comes never
        // runs (it ends on the cancel), and then there is no failure to report.
        await photoIn.wait()
        await videoIn.wait()
        flow.cancel()
        await #expect(throws: Boom("disk full")) { try await flow.value }
        guard case .failed(let error) = flow.status else {
            Issue.record("expected failed, got \(flow.status)")
            return
        }
        #expect(error as? Boom == Boom("disk full"))
    }

    @Test func childrenThatAllStopOnTheCancelEndTheFlowCancelled() async throws {
        let manager = TaskFlowManager()
        let started = Recorder<Int>()
        let flow = manager.execute(title: "upload", access: .write) { flow in
            try await flow.group(title: "media") { group in
                for index in 0..<3 {
                    group.task(title: "file \(index)") { task in
                        started.record(index)
                        _ = await eventually { task.isCancelled }
                        throw CancellationError()
                    }
                }
            }
        }
        #expect(await eventually { started.all.count == 3 })
        flow.cancel()
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(flow.status.phase == .cancelled)
    }
}
