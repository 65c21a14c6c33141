import TaskFlow

/// The cost of a flow itself: submit, run and complete an empty flow, no observer,
/// against the raw cost of the task each flow already is — `Task.detached {}` and its `value`,
/// submitted and awaited the same way in the same run. Target: ≤ 2× at every size, so that the
/// cost per flow does not grow with the number of flows either.
func benchmarkEmptyFlows(_ table: inout ResultTable) async throws {
    progress("empty flows")
    _ = try await timeEmptyFlows(2_000, access: .write) // warm-up
    _ = await timeRawTasks(2_000)
    for (count, access) in [(1_000, FlowAccess.write), (10_000, .write), (100_000, .write), (100_000, .read)] {
        // Interleaved and repeated, so a drift in machine load affects both sides alike.
        var flows: [Double] = []
        var raw: [Double] = []
        for _ in 0..<(count >= 100_000 ? 3 : 7) {
            raw.append(await timeRawTasks(count))
            flows.append(try await timeEmptyFlows(count, access: access))
        }
        let (flow, task) = (Samples(flows).median, Samples(raw).median)
        table.add(
            "empty \(access.rawValue) flow, \(count.formatted) submitted then awaited",
            taskFlow: formatNanoseconds(flow), baseline: formatNanoseconds(task) + " (Task.detached + value)",
            ratio: formatRatio(flow / task), target: "≤ 2× raw task", verdict: verdict(flow / task <= 2))
    }
}

/// Nanoseconds per flow: `count` empty flows submitted from one task, then every value awaited.
func timeEmptyFlows(_ count: Int, access: FlowAccess) async throws -> Double {
    let manager = TaskFlowManager(undoHistoryLimit: 100)
    var handles: [TaskFlow<Void>] = []
    handles.reserveCapacity(count)
    let elapsed = try await measure {
        for _ in 0..<count {
            handles.append(manager.execute(title: "empty", access: access) { _ in })
        }
        for handle in handles { try await handle.value }
    }
    return nanoseconds(elapsed) / Double(count)
}

/// Nanoseconds per task: `count` empty detached tasks created from one task, then every value
/// awaited — what each flow costs at the least, since every flow is a task.
private func timeRawTasks(_ count: Int) async -> Double {
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(count)
    let elapsed = await measure {
        for _ in 0..<count {
            tasks.append(Task.detached {})
        }
        for task in tasks { await task.value }
    }
    return nanoseconds(elapsed) / Double(count)
}

extension Int {
    /// With thousands separators: 100,000.
    fileprivate var formatted: String {
        let digits = Array(String(self))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
