import Foundation
import Testing
import TaskFlow
import TaskFlowTestSupport

/// Cancel and failure: what runs, what is reverted, in which order, and where.
@Suite struct RollbackTests {
    struct Trace: Sendable, Equatable {
        let what: String
        /// For background code: whether the main actor ran a job while this code held its
        /// thread (it would not, were the code occupying the main actor). Nil for foreground code.
        let mainActorWasFree: Bool?
    }

    /// Whether the main actor runs a job while the caller keeps its thread busy, waiting at most
    /// `limit`: true within microseconds unless the caller is the main actor itself.
    static func mainActorRunsMeanwhile(limit: Duration = .seconds(60)) -> Bool {
        let ran = Gate()
        Task { @MainActor in ran.open() }
        let deadline = ContinuousClock.now + limit
        while !ran.isOpen, ContinuousClock.now < deadline { sched_yield() }
        return ran.isOpen
    }

    /// A flow of foreground and background steps, with foreground sub-steps inside a background
    /// step; it stops at `gate` inside its last step. Foreground code checks that it runs on the
    /// main actor (a trap otherwise); background code, that it leaves the main actor free.
    func mixedFlow(
        _ manager: TaskFlowManager<Void>, _ trace: Recorder<Trace>, gate: Gate, inLastStep: Gate = Gate(), failLast: Bool = false
    ) -> TaskFlow<String> {
        @Sendable func note(_ what: String) -> Trace {
            MainActor.preconditionIsolated("\(what) runs on the main actor")
            return Trace(what: what, mainActorWasFree: nil)
        }
        @Sendable func backgroundNote(_ what: String) -> Trace {
            Trace(what: what, mainActorWasFree: Self.mainActorRunsMeanwhile())
        }
        return manager.execute(title: "mixed", access: .write) { flow in
            try await flow.main(title: "A", apply: { trace.record(note("apply A")) }, revert: { _ in trace.record(note("revert A")) })
            try await flow.task(title: "B", apply: { task in
                try await task.main(title: "b1", apply: { trace.record(note("apply b1")) }, revert: { _ in trace.record(note("revert b1")) })
                try await task.main(title: "b2", apply: { trace.record(note("apply b2")) }, revert: { _ in trace.record(note("revert b2")) })
                return "B value"
            }, revert: { _, value in trace.record(backgroundNote("revert B with \(value)")) })
            try await flow.main(title: "C", apply: { trace.record(note("apply C")) }, revert: { _ in trace.record(note("revert C")) })
            try await flow.task(title: "D", apply: { _ in
                inLastStep.open()
                await gate.wait()
                trace.record(backgroundNote("apply D"))
                if failLast { throw Boom("D") }
            }, revert: { _, _ in trace.record(backgroundNote("revert D")) })
            try await flow.task(title: "E", apply: { _ in trace.record(backgroundNote("apply E")) }, revert: { _, _ in trace.record(backgroundNote("revert E")) })
            return "done"
        }
    }

    @Test func cancelLetsTheCurrentStepFinishThenRevertsEverythingInReverse() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<Trace>()
        let gate = Gate()
        let log = EventLog(manager)
        let inLastStep = Gate()
        let flow = mixedFlow(manager, trace, gate: gate, inLastStep: inLastStep)
        await inLastStep.wait()
        flow.cancel()
        #expect(flow.status.phase == .cancelling, "the current step is still finishing")
        gate.open()
        await #expect(throws: CancellationError.self) { try await flow.value }

        #expect(trace.all.map(\.what) == [
            "apply A", "apply b1", "apply b2", "apply C", "apply D",
            "revert D", "revert C", "revert b2", "revert b1", "revert B with B value", "revert A",
        ])
        #expect(flow.status.phase == .cancelled)
        #expect(await log.waitUntilFinished(flow.id))
        let reverts = log.reverts(of: flow.id, titles: log.stepTitles(of: flow.id))
        #expect(reverts == [
            "reverting D", "reverted D", "reverting C", "reverted C", "reverting B",
            "reverting b2", "reverted b2", "reverting b1", "reverted b1", "reverted B",
            "reverting A", "reverted A",
        ])
    }

    @Test func foregroundRevertsRunOnTheMainActorAndBackgroundRevertsOffIt() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<Trace>()
        let gate = Gate()
        let inLastStep = Gate()
        let flow = mixedFlow(manager, trace, gate: gate, inLastStep: inLastStep)
        await inLastStep.wait()
        flow.cancel()
        gate.open()
        _ = await flow.finished()
        let placement = Dictionary(uniqueKeysWithValues: trace.all.map { ($0.what, $0.mainActorWasFree) })
        // Foreground reverts ran, each checking it is on the main actor; background reverts
        // left the main actor free while they ran.
        #expect(["revert A", "revert b1", "revert b2", "revert C"].allSatisfy { placement[$0] == .some(nil) }, "\(placement)")
        #expect(placement["revert D"] == true && placement["revert B with B value"] == true, "\(placement)")
    }

    @Test func aFailingStepRollsTheFlowBackAndValueRethrows() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<Trace>()
        let gate = Gate()
        gate.open()
        let flow = mixedFlow(manager, trace, gate: gate, failLast: true)
        await #expect(throws: Boom("D")) { try await flow.value }
        // D threw, so D is not reverted; E never ran.
        #expect(trace.all.map(\.what).suffix(5) == ["revert C", "revert b2", "revert b1", "revert B with B value", "revert A"])
        #expect(!trace.all.map(\.what).contains("apply E"))
        guard case .failed(let error) = flow.status else {
            Issue.record("expected failed, got \(flow.status)")
            return
        }
        #expect(error as? Boom == Boom("D"))
    }

    @Test func aFailedBackgroundStepStillRevertsItsForegroundSubSteps() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let flow = manager.execute(title: "half-done step", access: .write) { flow in
            try await flow.task(title: "S", apply: { task in
                try await task.main(title: "s1", apply: { trace.record("apply s1") }, revert: { _ in trace.record("revert s1") })
                throw Boom()
            }, revert: { _, _ in trace.record("revert S") })
        }
        await #expect(throws: Boom.self) { try await flow.value }
        #expect(trace.all == ["apply s1", "revert s1"])
    }

    @Test func aRevertThatThrowsDoesNotStopTheRollback() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let flow = manager.execute(title: "bad reverts", access: .write) { flow in
            try await flow.task(title: "one", apply: { _ in }, revert: { _, _ in trace.record("revert one") })
            try await flow.task(title: "two", apply: { _ in }, revert: { _, _ in throw Boom("two") })
            try await flow.main(title: "three", apply: {}, revert: { _ in throw Boom("three") })
            try await flow.task(title: "four", apply: { _ in }, revert: { _, _ in trace.record("revert four") })
            throw Boom("body")
        }
        do {
            try await flow.value
            Issue.record("the flow should fail")
        } catch let error as RollbackIncompleteError {
            #expect(error.failures.map(\.step.title) == ["three", "two"])
            guard case .failed(let cause) = error.cause else {
                Issue.record("cause should be the body's failure")
                return
            }
            #expect(cause as? Boom == Boom("body"))
        }
        #expect(trace.all == ["revert four", "revert one"], "every other revert still ran")
        #expect(flow.status.phase == .rollbackIncomplete)
    }

    @Test func cancelBeforeTheFlowStartsMeansTheBodyNeverRuns() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let ran = Recorder<Bool>()
        let blocker = manager.execute(title: "blocker", access: .write) { _ in await gate.wait() }
        let flow = manager.execute(title: "never", access: .write) { _ in ran.record(true) }
        flow.cancel()
        gate.open()
        try await blocker.value
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(ran.all.isEmpty)
        #expect(flow.status.phase == .cancelled)
    }

    @Test func onlyTheFirstCancelCountsAndNoneAfterCompletion() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let reverts = Recorder<String>()
        let entered = Recorder<Bool>()
        let flow = manager.execute(title: "twice", access: .write) { flow in
            try await flow.task(title: "slow", apply: { _ in
                entered.record(true)
                await gate.wait()
            }, revert: { _, _ in reverts.record("slow") })
        }
        #expect(await eventually { !entered.all.isEmpty })
        flow.cancel()
        flow.cancel()
        gate.open()
        _ = await flow.finished()
        flow.cancel()
        #expect(reverts.all == ["slow"], "one rollback, each revert once")
        #expect(flow.status.phase == .cancelled)

        let done = manager.execute(title: "done", access: .write) { _ in 7 }
        #expect(try await done.value == 7)
        done.cancel()
        #expect(done.status.phase == .completed, "cancel after completion has no effect")
    }

    @Test func aStepCanStopEarlyWhenItSeesTheCancel() async throws {
        let manager = TaskFlowManager()
        let iterations = Recorder<Int>()
        let flow = manager.execute(title: "long loop", access: .write) { flow in
            try await flow.task(title: "loop", apply: { task in
                for i in 0..<1_000_000 {
                    if task.isCancelled { throw CancellationError() }
                    iterations.record(i)
                    await Task.yield()
                }
            })
        }
        #expect(await eventually { iterations.all.count > 10 })
        flow.cancel()
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(iterations.all.count < 1_000_000)
    }

    @Test func revertFailuresInsideAStepReachABodyThatCatchesItsError() async throws {
        let manager = TaskFlowManager()
        let caught = Recorder<[String]>()
        let flow = manager.execute(title: "catching") { flow in
            do {
                try await flow.sequence(title: "seq") { seq in
                    seq.task(title: "ok", apply: { _ in }, revert: { _, _ in throw Boom("revert ok") })
                    seq.task(title: "bad", apply: { _ in throw Boom("apply bad") })
                }
            } catch let error as RollbackIncompleteError {
                caught.record(error.failures.map(\.step.title))
            }
            return 1
        }
        #expect(try await flow.value == 1, "the body chose to go on")
        #expect(caught.all == [["ok"]], "and was told which revert failed")
    }

    @Test func aRevertFailureInsideAGroupIsListedInTheFlowsFinalError() async throws {
        let manager = TaskFlowManager()
        // "fails" throws only once "bad revert" has run: a child not yet started when its
        // sibling fails never runs (the failure cancels it), and then has no revert to fail.
        let badRevertRan = Gate()
        let flow = manager.execute(title: "group then fail") { flow in
            try await flow.group(title: "g") { group in
                group.task(title: "bad revert", apply: { _ in badRevertRan.open() }, revert: { _, _ in throw Boom("revert") })
                group.task(title: "fails", apply: { _ in
                    await badRevertRan.wait()
                    throw Boom("child")
                })
            }
        }
        do {
            try await flow.value
            Issue.record("the flow should fail")
        } catch let error as RollbackIncompleteError {
            #expect(error.failures.map(\.step.title) == ["bad revert"])
            guard case .failed(let cause) = error.cause else {
                Issue.record("cause should be the child's failure")
                return
            }
            #expect(cause as? Boom == Boom("child"))
        }
    }

    @Test func aRealFailureAfterACancelIsReportedAsTheFailure() async throws {
        let manager = TaskFlowManager()
        let (inStep, go) = (Gate(), Gate())
        let flow = manager.execute(title: "disk") { flow in
            try await flow.task(title: "write", apply: { _ in
                inStep.open()
                await go.wait()
                throw Boom("disk full")
            })
        }
        await inStep.wait()
        flow.cancel()
        go.open()
        await #expect(throws: Boom("disk full")) { try await flow.value }
        #expect(flow.status.phase == .failed)
    }
}
