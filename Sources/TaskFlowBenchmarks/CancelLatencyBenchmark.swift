import Synchronization
import TaskFlow

func benchmarkCancelLatency(_ table: inout ResultTable) async throws {
    progress("cancel latency")
    let runs = 300
    let raw = Samples(try await rawCancelLatencies(runs))
    let flow = Samples(try await cancelLatencies(runs))
    addComparison(&table, "cancel: step end → first revert, p50 (n=\(flow.count))", \.median, flow, raw, "flag check")
    addComparison(
        &table, "cancel: step end → first revert, p99", { $0.percentile(99) }, flow, raw, "flag check",
        target: "p99 ≤ 100 µs", met: flow.percentile(99) <= 100_000)
}

/// One row comparing the same statistic (in nanoseconds) of TaskFlow's samples and the
/// baseline's; without `met` the row is informational.
func addComparison(
    _ table: inout ResultTable, _ figure: String, _ statistic: (Samples) -> Double,
    _ taskFlow: Samples, _ baseline: Samples, _ baselineLabel: String, target: String = "info", met: Bool? = nil
) {
    let (value, reference) = (statistic(taskFlow), statistic(baseline))
    table.add(
        figure, taskFlow: formatNanoseconds(value), baseline: formatNanoseconds(reference) + " (\(baselineLabel))",
        ratio: formatRatio(value / reference), target: target, verdict: met.map(verdict) ?? .info)
}

/// A write flow whose first step sleeps 1 ms is cancelled during that sleep; each run gives the
/// time from that step's end to the start of its revert, the first one of the rollback.
private func cancelLatencies(_ runs: Int) async throws -> [Double] {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    var latencies: [Double] = []
    for _ in 0..<runs {
        let probe = CancelProbe()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let flow = manager.execute(title: "cancelled", access: .write) { flow in
            try await flow.task(title: "slow") { _ in
                startedContinuation.yield()
                try await Task.sleep(for: .milliseconds(1))
                probe.stepEnded()
            } revert: { _, _ in
                probe.revertStarted()
            }
            try await flow.task(title: "never runs", apply: { _ in }, revert: { _, _ in })
        }
        for await _ in started { break }
        flow.cancel()
        await flow.finished()
        if let latency = probe.latency { latencies.append(latency) }
    }
    return latencies
}

/// The same in raw Swift: the task checks a cancel flag after its await and runs its revert.
private func rawCancelLatencies(_ runs: Int) async throws -> [Double] {
    var latencies: [Double] = []
    for _ in 0..<runs {
        let probe = CancelProbe()
        let cancelled = SharedFlag()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            startedContinuation.yield()
            try await Task.sleep(for: .milliseconds(1))
            probe.stepEnded()
            if cancelled.isSet {
                probe.revertStarted()
                _ = await opaqueAsyncCall(0)
            }
        }
        for await _ in started { break }
        cancelled.set()
        try await task.value
        if let latency = probe.latency { latencies.append(latency) }
    }
    return latencies
}
