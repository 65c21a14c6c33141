import Synchronization
import TaskFlow

func benchmarkForegroundSteps(_ table: inout ResultTable) async throws {
    progress("foreground steps")
    let steps = 2_000
    _ = try await timeForegroundSteps(steps / 10) // warm-up
    _ = await timeRawMainActorRoundTrips(steps / 10)
    // Interleaved, so a change in how fast the main thread wakes affects both sides.
    var raw: [Double] = []
    var flow: [Double] = []
    for _ in 0..<5 {
        raw.append(await timeRawMainActorRoundTrips(steps))
        flow.append(try await timeForegroundSteps(steps))
    }
    let rawMedian = Samples(raw).median
    let flowMedian = Samples(flow).median
    table.add(
        "flow.main step (no-op, from a flow)", taskFlow: formatNanoseconds(flowMedian),
        baseline: formatNanoseconds(rawMedian) + " (MainActor.run)", ratio: formatRatio(flowMedian / rawMedian),
        target: "≤ 1.25× raw hop", verdict: verdict(flowMedian / rawMedian <= 1.25))
}

private func timeForegroundSteps(_ count: Int) async throws -> Double {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let elapsed = try await manager.execute(title: "foreground steps", access: .write) { flow in
        try await measure {
            for _ in 0..<count {
                try await flow.main(apply: {}, revert: { _ in })
            }
        }
    }.value
    return nanoseconds(elapsed) / Double(count)
}

private func timeRawMainActorRoundTrips(_ count: Int) async -> Double {
    let elapsed = await measure {
        for _ in 0..<count { await MainActor.run {} }
    }
    return nanoseconds(elapsed) / Double(count)
}
