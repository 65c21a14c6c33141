import Testing
import TaskFlow
import TaskFlowTestSupport

/// Thousands of random flows with random cancels and failures: exclusivity must hold at every
/// moment, and the final state must be exactly what the completed flows alone produce.
@Suite struct StressTests {
    /// The state: every write flow appends its id then its negation, so a balanced list shows
    /// no reader ever saw a half-applied writer.
    typealias Ledger = [Int]

    @Test(arguments: [1, 2, 3])
    func randomFlowsCancelsAndFailures(seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed)
        let manager = TaskFlowManager(state: Ledger(), undoHistoryLimit: 0)
        let registrar = Registrar()
        let writesThatRan = Recorder<Int>()
        let unbalancedSnapshots = Recorder<Ledger>()
        var flows: [(TaskFlow<Void>, FlowAccess)] = []

        for index in 1...2_000 {
            let access: FlowAccess = rng.next() % 3 == 0 ? .write : .read
            let fails = rng.next() % 10 == 0
            let flow = manager.execute(title: "flow \(index)", access: access) { flow in
                registrar.enter(access.rawValue)
                defer { registrar.leave(access.rawValue) }
                if access == .read {
                    let snapshot = flow.state
                    if snapshot.reduce(0, +) != 0 { unbalancedSnapshots.record(snapshot) }
                    await Task.yield()
                    if fails { throw Boom() }
                    return
                }
                try await flow.update { $0.append(index) }
                await Task.yield()
                try await flow.update { $0.append(-index) }
                if fails { throw Boom() }
                try await flow.task(title: "finish", apply: { _ in writesThatRan.record(index) }, revert: { _, _ in })
            }
            flows.append((flow, access))
            if rng.next() % 7 == 0 { flows[Int(rng.next() % UInt64(flows.count))].0.cancel() }
            if index % 50 == 0 { await Task.yield() }
        }

        var completedWrites: Set<Int> = []
        var outcomes: [String: Int] = [:]
        for (index, (flow, access)) in flows.enumerated() {
            let status = await flow.finished()
            outcomes[status.name, default: 0] += 1
            #expect(["completed", "cancelled", "failed"].contains(status.name), "flow \(index + 1) ended \(status)")
            if access == .write, status.phase == .completed { completedWrites.insert(index + 1) }
        }
        #expect(outcomes["completed", default: 0] > 0 && outcomes["cancelled", default: 0] > 0 && outcomes["failed", default: 0] > 0,
                "the mix exercised every ending: \(outcomes)")
        #expect(!completedWrites.isEmpty)

        #expect(registrar.violations.isEmpty, "a writer overlapped another holder")
        #expect(unbalancedSnapshots.all.isEmpty, "a reader saw a half-applied write")
        // Writers ran alone and in admission order, so the ledger is each completed writer's
        // pair, in the order their last steps ran.
        let expected = writesThatRan.all.filter(completedWrites.contains).flatMap { [$0, -$0] }
        #expect(manager.state == expected)
        #expect(Set(writesThatRan.all.filter(completedWrites.contains)) == completedWrites)
        #expect(manager.snapshot().flows.isEmpty)
        #expect(manager.snapshot().lock.mode == .idle)
    }
}
