import Testing
import TaskFlow
import TaskFlowTestSupport

/// A background step continues its flow with the same calls as the flow: background steps,
/// groups, sequences and updates inside it, nested to any depth, reverted inside it, last
/// first, before its own revert (DESIGN §3).
@Suite struct NestedStepTests {
    /// outer (task) → o1 (main), inner (task) → count (update), seq (sequence) → s1, s2 (tasks).
    private func nestedFlow(
        _ manager: TaskFlowManager<Int>, _ trace: Recorder<String>, failAtEnd: Bool
    ) -> TaskFlow<Int> {
        manager.execute(title: "nested") { flow in
            let value = try await flow.task(title: "outer", apply: { outer in
                try await outer.main(title: "o1", apply: { trace.record("apply o1") }, revert: { _ in trace.record("revert o1") })
                return try await outer.task(title: "inner", apply: { inner in
                    try await inner.update(title: "count") { $0 += 1 }
                    try await inner.sequence(title: "seq") { seq in
                        for name in ["s1", "s2"] {
                            seq.task(title: name, apply: { _ in trace.record("apply \(name)") },
                                     revert: { _, _ in trace.record("revert \(name)") })
                        }
                    }
                    return inner.state * 7
                }, revert: { task, value in trace.record("revert inner \(value), state \(task.state)") })
            }, revert: { _, value in trace.record("revert outer \(value)") })
            if failAtEnd { throw Boom("end") }
            return value
        }
    }

    @Test func innerStepsAreRevertedInsideTheirStepLastFirstBeforeItsOwnRevert() async throws {
        let manager = TaskFlowManager(state: 0)
        let trace = Recorder<String>()
        let log = EventLog(manager)
        let flow = nestedFlow(manager, trace, failAtEnd: true)
        await #expect(throws: Boom("end")) { try await flow.value }
        #expect(trace.all == [
            "apply o1", "apply s1", "apply s2",
            "revert s2", "revert s1", "revert inner 7, state 0", "revert o1", "revert outer 7",
        ])
        #expect(manager.state == 0, "the inner update was reverted")

        #expect(await log.waitUntilFinished(flow.id))
        var parents: [String: String] = [:]
        let titles = log.stepTitles(of: flow.id)
        for case .stepStarted(flow.id, let step) in log.events {
            parents[step.title] = step.parent.map { titles[$0] ?? "?" } ?? "flow"
        }
        #expect(parents == [
            "outer": "flow", "o1": "outer", "inner": "outer", "count": "inner", "seq": "inner",
            "s1": "seq", "s2": "seq",
        ])
    }

    @Test func undoRevertsNestedStepsTheSameWay() async throws {
        let manager = TaskFlowManager(state: 0)
        let trace = Recorder<String>()
        let flow = nestedFlow(manager, trace, failAtEnd: false)
        #expect(try await flow.value == 7)
        #expect(manager.state == 1)
        try await flow.undo()
        #expect(trace.all.suffix(5) == ["revert s2", "revert s1", "revert inner 7, state 0", "revert o1", "revert outer 7"])
        #expect(manager.state == 0)
    }

    @Test func aReadFlowsTaskCannotUpdate() async throws {
        let manager = TaskFlowManager(state: 0)
        let flow = manager.execute(title: "look", access: .read) { flow in
            try await flow.task(title: "outer", apply: { task in try await task.update { $0 += 1 } })
        }
        await #expect(throws: FlowError.updateInReadFlow(flow: flow.info)) { try await flow.value }
        #expect(manager.state == 0)
    }

    @Test func nestingIsUnbounded() async throws {
        let manager = TaskFlowManager(state: 0)
        let depth = 200
        @Sendable func nest(_ task: TaskContext<Int>, _ level: Int) async throws {
            try await task.update { $0 += 1 }
            guard level < depth else { throw Boom("bottom") }
            try await task.task(title: "level \(level + 1)", apply: { try await nest($0, level + 1) })
        }
        let flow = manager.execute(title: "deep") { flow in
            try await flow.task(title: "level 1", apply: { try await nest($0, 1) })
        }
        await #expect(throws: Boom("bottom")) { try await flow.value }
        #expect(manager.state == 0, "all \(depth) nested updates reverted")
    }
}
