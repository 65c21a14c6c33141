import Logging
import ServiceLifecycle
import TaskFlow
import TaskFlowTestSupport
import Testing

/// The manager in a server's `ServiceGroup` (`manager.service(grace:)`): a graceful shutdown
/// refuses new flows, lets the live ones finish for the grace, then cancels the rest and waits
/// for their rollbacks.
@Suite("Manager service")
struct ManagerServiceTests {
    private static let logger = Logger(label: "taskflow.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A read flow that registers a revert, opens `started`, waits for `gate`, then takes one
    /// more step (which a cancel made meanwhile stops, rolling it back). A test cancels only
    /// once `started` is open: a flow cancelled before its first step has nothing to revert.
    private func flow(
        _ name: String, on manager: TaskFlowManager<Void>, started: Gate, gate: Gate, reverts: Recorder<String>
    ) -> TaskFlow<Void> {
        manager.execute(title: name, access: .read) { flow in
            try await flow.task(title: "start", apply: { _ in }, revert: { _, _ in reverts.record(name) })
            started.open()
            await gate.wait()
            try await flow.task(title: "finish") { _ in }
        }
    }

    @Test("a graceful shutdown refuses new flows, lets live ones finish within the grace, then rolls back the rest")
    func gracefulShutdown() async throws {
        let clock = TestClock()
        let manager = TaskFlowManager(clock: clock)
        let reverts = Recorder<String>()
        let (quick, slow, quickIn, slowIn) = (Gate(), Gate(), Gate(), Gate())
        let finishing = flow("quick", on: manager, started: quickIn, gate: quick, reverts: reverts)
        let overrunning = flow("slow", on: manager, started: slowIn, gate: slow, reverts: reverts)
        await quickIn.wait()
        await slowIn.wait()
        let group = ServiceGroup(services: [manager.service(grace: .seconds(10))], logger: Self.logger)
        let running = Task { try await group.run() }
        await group.triggerGracefulShutdown()
        // The grace is under way once the service waits for its end.
        #expect(await clock.waitForSleep(until: clock.now + .seconds(10)))
        let late = manager.execute(title: "late") { _ in Issue.record("a flow ran after the shutdown began") }
        await #expect(throws: FlowError.shuttingDown) { try await late.value }
        #expect(late.status.phase == .failed)

        quick.open()
        try await finishing.value
        clock.advance(by: .seconds(10))
        #expect(await eventually { overrunning.status.phase == .cancelling }, "the grace is over: cancelled")
        slow.open()
        await #expect(throws: CancellationError.self) { try await overrunning.value }
        try await running.value
        #expect(reverts.all == ["slow"])
    }

    @Test("cancelled (a second signal), it cancels every live flow at once and still waits for the rollbacks")
    func cancelled() async throws {
        let manager = TaskFlowManager()
        let reverts = Recorder<String>()
        let (gate, liveIn) = (Gate(), Gate())
        let live = flow("live", on: manager, started: liveIn, gate: gate, reverts: reverts)
        await liveIn.wait()
        let service = manager.service(grace: .seconds(3600))
        let running = Task { try await service.run() }
        running.cancel()
        #expect(await eventually { live.status.phase == .cancelling })
        gate.open()
        try await running.value
        #expect(live.status.phase == .cancelled, "run() returned after the rollback")
        #expect(reverts.all == ["live"])
    }
}
