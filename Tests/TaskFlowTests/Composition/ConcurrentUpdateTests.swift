import Testing
import TaskFlow
import TaskFlowTestSupport

/// Updates made at once by the children of a group roll back to the state before the group,
/// whatever order the children complete in. Seeded, so a failure replays.
@Suite struct ConcurrentUpdateTests {
    @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func anyInterleavingOfUpdatesInAGroupRollsBackCleanly(seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        let manager = TaskFlowManager(state: [Int]())
        for round in 0..<700 {
            let plans = (0..<Int.random(in: 2...6, using: &generator)).map { _ in
                UpdatePlan(
                    updates: Int.random(in: 1...3, using: &generator), yieldsAfter: Int.random(in: 0...5, using: &generator),
                    direct: Bool.random(using: &generator))
            }
            let cancels = Bool.random(using: &generator)
            // The body cannot end before the cancel is in: it lands anywhere in the group or
            // after it, never after the flow completed (a loaded machine may run the whole flow
            // before this task calls cancel, and nothing would be rolled back).
            let cancelled = Gate()
            let flow = manager.execute(title: "round \(round)") { flow in
                try await flow.group(title: "writers") { group in
                    for (index, plan) in plans.enumerated() {
                        group.task(title: "writer \(index)") { task in
                            for update in 0..<plan.updates {
                                let value = index * 10 + update
                                // Half the writers update through the flow, half through their own
                                // step: both kinds register reverts in completion order.
                                if plan.direct {
                                    try await flow.update { $0.append(value) }
                                } else {
                                    try await task.update { $0.append(value) }
                                }
                                for _ in 0..<plan.yieldsAfter { await Task.yield() }
                            }
                        }
                    }
                }
                guard cancels else { throw Boom("after the group") }
                await cancelled.wait()
            }
            if cancels {
                flow.cancel()
                cancelled.open()
            }
            let status = await flow.finished()
            #expect(status.phase == (cancels ? .cancelled : .failed), "seed \(seed), round \(round): \(status)")
            #expect(manager.state == [], "seed \(seed), round \(round): the state is as before the flow")
            if manager.state != [] { return }
        }
    }

    private struct UpdatePlan {
        let updates: Int
        let yieldsAfter: Int
        let direct: Bool
    }
}
