import TaskFlow

/// What metrics and traces cost when no backend is bootstrapped (DESIGN §9: within 5 % of the
/// engine without them). One binary cannot hold the engine before instrumentation, so each
/// figure is measured twice in the same run, interleaved: with the default no-op metrics and
/// tracer (what every program gets), and with the package's switch turning instrumentation off,
/// which skips even the look-up of the factory and the tracer — the engine as it was, less one
/// relaxed atomic load per flow and job. Compare with the `core` table's figures too.
@concurrent
func runInstrumentationBenchmarks() async {
    var table = ResultTable(title: "Instrumentation, no backend (\(buildConfiguration); switched off = the engine without it)")
    do {
        progress("instrumentation: no-op steps")
        let steps = try await interleaved { try await timeSteps(CoreWorkload.steps, .taskWithRevert, observed: false).flow }
        add(steps, "no-op flow.task step, default no-op metrics and tracer", to: &table)
        progress("instrumentation: empty flows")
        let flows = try await interleaved { try await timeEmptyFlows(10_000, access: .write) }
        add(flows, "empty write flow, 10,000 submitted then awaited, no-op backends", to: &table)
        let jobs = try await interleaved { try await timeQueueJobs(10_000) }
        add(jobs, "JobQueue job, 10,000 added then awaited, no-op backends", to: &table)
    } catch {
        print("instrumentation benchmarks stopped early: \(error)")
    }
    InstrumentationSwitch.set(true)
    print("")
    BenchmarkReport.publish(table)
    print("")
}

/// Median nanoseconds of `body` with instrumentation on (no-op backends) and switched off,
/// 7 runs of each, interleaved so that a drift in machine load affects both alike.
private func interleaved(_ body: () async throws -> Double) async throws -> (on: Double, off: Double) {
    InstrumentationSwitch.set(true)
    _ = try await body() // warm-up
    var on: [Double] = []
    var off: [Double] = []
    for _ in 0..<7 {
        InstrumentationSwitch.set(false)
        off.append(try await body())
        InstrumentationSwitch.set(true)
        on.append(try await body())
    }
    return (Samples(on).median, Samples(off).median)
}

private func add(_ figures: (on: Double, off: Double), _ label: String, to table: inout ResultTable) {
    let ratio = figures.on / figures.off
    table.add(
        label, taskFlow: formatNanoseconds(figures.on), baseline: formatNanoseconds(figures.off) + " (switched off)",
        ratio: formatRatio(ratio), target: "≤ 1.05×", verdict: verdict(ratio <= 1.05))
}

/// Nanoseconds per job: `count` jobs returning at once, added to one queue, then awaited.
private func timeQueueJobs(_ count: Int) async throws -> Double {
    let queue = JobQueue(title: "bench", maxConcurrent: 4)
    var handles: [JobHandle<Int>] = []
    handles.reserveCapacity(count)
    let job = Job(title: "no-op") { _ in 1 }
    let elapsed = try await measure {
        for _ in 0..<count { handles.append(queue.add(job)) }
        for handle in handles { _ = try await handle.value }
    }
    return nanoseconds(elapsed) / Double(count)
}
