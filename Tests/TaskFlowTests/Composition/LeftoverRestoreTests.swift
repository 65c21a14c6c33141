import Testing
import TaskFlow
import TaskFlowTestSupport

/// A step that fails inside a group after a sibling changed the state cannot restore its own
/// update (the sibling's change is on top of it). If the flow then completes (a retry succeeded),
/// that restore can never apply: the flow reports it as a revert failure of its own, and it
/// never surfaces in a later flow's rollback as that flow's failure.
@Suite struct LeftoverRestoreTests {
    @Test func aRestoreAFailedAttemptLeftBehindIsTheCompletedFlowsNotALaterOnes() async throws {
        let manager = TaskFlowManager(state: [String]())
        let log = EventLog(manager)
        let updated = Gate(), siblingDone = Gate()
        let attempts = Recorder<Int>()
        let first = manager.execute(title: "first") { flow in
            try await flow.group(title: "both") { group in
                group.task(title: "A") { a in
                    try await a.task(title: "send", retry: .immediate(maxAttempts: 2)) { t in
                        attempts.record(attempts.all.count + 1)
                        guard attempts.all.count == 1 else { return }
                        try await t.update { $0.append("A") }
                        updated.open()
                        await siblingDone.wait()
                        throw Boom("first attempt")
                    }
                }
                group.task(title: "B") { b in
                    await updated.wait()
                    try await b.update { $0.append("B") }
                    siblingDone.open()
                }
            }
        }
        try await first.value
        #expect(attempts.all == [1, 2])
        #expect(await log.waitUntilFinished(first.id))
        #expect(log.events.contains { event in
            if case .revertFailed(first.id, let step, _) = event { step.kind == .update } else { false }
        }, "the completed flow reports the restore it could not make")

        let second = manager.execute(title: "second") { flow in
            try await flow.update { $0.append("C") }
            throw Boom("second fails")
        }
        await #expect(throws: Boom("second fails")) { try await second.value }
        #expect(second.status.phase == .failed, "a later flow's rollback is not charged with the first's restore")
        #expect(manager.state == ["A", "B"])
    }
}
