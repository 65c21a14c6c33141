import Synchronization
import TaskFlow

func benchmarkWriterWait(_ table: inout ResultTable) async throws {
    progress("writer wait under 1,000 readers")
    let result = try await measureWriterWait(readers: 1_000, duration: .seconds(4))
    let waits = Samples(result.waits)
    let phases = Samples(result.phases)
    let ratios = Samples(result.waitToPhase)
    addComparison(&table, "writer wait p50, 1k readers (n=\(waits.count))", \.median, waits, phases, "read phase p50")
    addComparison(&table, "writer wait p99", { $0.percentile(99) }, waits, phases, "read phase p99")
    addComparison(&table, "writer wait max", \.max, waits, phases, "read phase max")
    // The claim, writer by writer: its wait against the read phase it waited behind.
    table.add(
        "wait ÷ own read phase, p99 (max)", taskFlow: formatRatio(ratios.percentile(99)) + " (\(formatRatio(ratios.max)))",
        baseline: "1 read phase", ratio: formatRatio(ratios.percentile(99)),
        target: "≤ ~1 phase (p99 ≤ 1.1×)", verdict: verdict(ratios.percentile(99) <= 1.1))
}

private struct WriterWaitResult {
    /// Nanoseconds from each writer's submission to its body's start.
    var waits: [Double] = []
    /// Nanoseconds from the first to the last reader body of each read phase.
    var phases: [Double] = []
    /// Each writer's wait divided by the length of the read phase right before it.
    var waitToPhase: [Double] = []
}

/// `readers` tasks keep submitting read flows that hold the lock ~100 µs each; meanwhile one
/// task submits write flows at random 0–1 ms intervals for `duration`.
private func measureWriterWait(readers: Int, duration: Duration) async throws -> WriterWaitResult {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let stop = SharedFlag()
    return try await withThrowingTaskGroup(of: [Interval].self) { group in
        for _ in 0..<readers {
            group.addTask {
                var bodies: [Interval] = []
                while !stop.isSet {
                    bodies.append(try await manager.execute(title: "reader", access: .read) { _ in
                        let start = ContinuousClock.now
                        try await Task.sleep(for: .microseconds(100))
                        return Interval(start: start, end: .now)
                    }.value)
                }
                return bodies
            }
        }
        try await Task.sleep(for: .milliseconds(300)) // let the readers reach a steady state
        var waits: [Double] = []
        var writers: [Interval] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            try await Task.sleep(for: .microseconds(Int(seed >> 33) % 1_000))
            let submitted = ContinuousClock.now
            let body = try await manager.execute(title: "writer", access: .write) { _ in
                Interval(start: .now, end: .now)
            }.value
            waits.append(nanoseconds(body.start - submitted))
            writers.append(body)
        }
        stop.set()
        var bodies: [Interval] = []
        for try await intervals in group { bodies += intervals }
        bodies.sort { $0.start < $1.start }

        var result = WriterWaitResult(waits: waits)
        var next = 0
        for index in writers.indices.dropFirst() {
            // The read phase between two writers: every reader body that ran after the earlier
            // writer's body and before the later one's (the lock excludes overlaps).
            while next < bodies.count, bodies[next].start <= writers[index - 1].end { next += 1 }
            var first: ContinuousClock.Instant?
            var last: ContinuousClock.Instant?
            while next < bodies.count, bodies[next].start < writers[index].start {
                first = first ?? bodies[next].start
                last = max(last ?? bodies[next].end, bodies[next].end)
                next += 1
            }
            guard let first, let last else { continue } // the writer found the lock idle
            let phase = nanoseconds(last - first)
            result.phases.append(phase)
            result.waitToPhase.append(waits[index] / phase)
        }
        return result
    }
}
