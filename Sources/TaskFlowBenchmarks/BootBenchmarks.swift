import TaskFlow

/// The boot's performance figures, each beside the raw Swift it is built on, measured in the
/// same run:
///
/// | figure                  | TaskFlow                                                              | raw baseline (fair because…)                                                  |
/// |-------------------------|-----------------------------------------------------------------------|-------------------------------------------------------------------------------|
/// | boot task               | a 10,000-task random DAG (3 dependencies each, no-op bodies): adding the tasks, validating, running | `withTaskGroup` with 10,000 no-op children: each boot task is one such child |
/// | of which validation     | `validate()` of that graph alone                                      | (info)                                                                        |
/// | chain validation        | `validate()` of a 100,000-task chain                                  | a `[String: Int]` of the same titles: the least any title check must build    |
/// | events, buffered        | 1,000,000 events sent before the boot, forwarded when it ends, until one observer has them all | a raw `AsyncStream` carrying as many to one consumer: what the mailbox is |
/// | events, after boot      | the same events sent once booted, forwarded directly                  | the same raw `AsyncStream`                                                    |
///
/// Each figure is the median of 5 runs.
@concurrent
func runBootBenchmarks() async {
    var table = ResultTable(title: "TaskFlow boot (\(buildConfiguration), median of 5; baselines measured in the same run)")
    await benchmarkBootGraph(&table)
    await benchmarkChainValidation(&table)
    await benchmarkEventForwarding(&table)
    print("")
    BenchmarkReport.publish(table)
    print("")
}

private enum BootWorkload {
    static let graphTasks = 10_000
    static let dependenciesPerTask = 3
    static let chainTasks = 100_000
    static let events = 1_000_000
    static let runs = 5
}

// MARK: - The DAG

private func benchmarkBootGraph(_ table: inout ResultTable) async {
    print("· boot graph…")
    let graph = randomGraph(tasks: BootWorkload.graphTasks, dependencies: BootWorkload.dependenciesPerTask, seed: 42)
    let boot = await medianOf(BootWorkload.runs) {
        nanoseconds(await measure {
            let boot = Boot<Int>(title: "Benchmark")
            for (title, after) in graph { boot.task(title, after: after) {} }
            do { try await boot.run() } catch { fatalError("the benchmark graph is valid: \(error)") }
        }) / Double(graph.count)
    }
    let raw = await medianOf(BootWorkload.runs) {
        nanoseconds(await measure {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<graph.count { group.addTask {} }
            }
        }) / Double(graph.count)
    }
    let validation = await medianOf(BootWorkload.runs) {
        let boot = Boot<Int>(title: "Benchmark")
        for (title, after) in graph { boot.task(title, after: after) {} }
        return nanoseconds(await measure {
            do { try boot.validate() } catch { fatalError("the benchmark graph is valid: \(error)") }
        }) / Double(graph.count)
    }
    table.add(
        "boot task (10,000 DAG, 3 deps, incl. validation)", taskFlow: formatNanoseconds(boot),
        baseline: formatNanoseconds(raw) + " (task group child)", ratio: formatRatio(boot / raw),
        target: "≤ 5 µs/task", verdict: boot <= 5_000 ? .met : .missed)
    table.add(
        "  of which validation", taskFlow: formatNanoseconds(validation), baseline: "", ratio: "",
        target: "info", verdict: .info)
}

/// `tasks` titled tasks, each after up to `dependencies` distinct earlier ones chosen at random
/// (fewer for the first few): a DAG by construction, the same for the same seed.
private func randomGraph(tasks: Int, dependencies: Int, seed: UInt64) -> [(String, [String])] {
    var random = XorShift(seed: seed)
    let titles = (0..<tasks).map { "task \($0)" }
    return titles.indices.map { index in
        var after = Set<Int>()
        while after.count < min(dependencies, index) { after.insert(Int(random.next() % UInt64(index))) }
        return (titles[index], after.sorted().map { titles[$0] })
    }
}

/// A small seeded generator (xorshift64*), so every run benchmarks the same graph.
private struct XorShift: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 1 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

// MARK: - Validation

private func benchmarkChainValidation(_ table: inout ResultTable) async {
    print("· 100,000-task chain validation…")
    let titles = (0..<BootWorkload.chainTasks).map { "task \($0)" }
    let chain = Boot<Int>(title: "Chain")
    chain.task(titles[0]) {}
    for index in 1..<titles.count { chain.task(titles[index], after: [titles[index - 1]]) {} }
    let validation = await medianOf(BootWorkload.runs) {
        nanoseconds(await measure {
            do { try chain.validate() } catch { fatalError("the chain is valid: \(error)") }
        })
    }
    let dictionary = await medianOf(BootWorkload.runs) {
        nanoseconds(await measure {
            var index: [String: Int] = [:]
            index.reserveCapacity(titles.count)
            for (position, title) in titles.enumerated() { index[title] = position }
            precondition(index.count == titles.count)
        })
    }
    table.add(
        "validate a 100,000-task chain (no recursion)", taskFlow: formatNanoseconds(validation),
        baseline: formatNanoseconds(dictionary) + " (title dictionary)", ratio: formatRatio(validation / dictionary),
        target: "info", verdict: .info)
}

// MARK: - Events

private func benchmarkEventForwarding(_ table: inout ResultTable) async {
    print("· event forwarding…")
    let count = BootWorkload.events
    let raw = await medianOf(BootWorkload.runs) { await rawStreamRate(count) }
    for buffered in [true, false] {
        let rate = await medianOf(BootWorkload.runs) { await bootForwardingRate(count, buffered: buffered) }
        table.add(
            buffered ? "events buffered during boot, then forwarded" : "events forwarded after boot",
            taskFlow: formatRate(rate, unit: "events"), baseline: formatRate(raw, unit: "events") + " (AsyncStream)",
            ratio: formatRatio(raw / rate), target: "≥ 1 M events/s", verdict: rate >= 1_000_000 ? .met : .missed)
    }
}

/// Events per second from the first `send` until one no-op observer has handled them all.
private func bootForwardingRate(_ count: Int, buffered: Bool) async -> Double {
    let boot = Boot<Int>(title: "Events")
    boot.observer("Observer") { _ in }
    if !buffered {
        do { try await boot.run() } catch { fatalError("an empty boot cannot fail: \(error)") }
    }
    let elapsed = await measure {
        for event in 0..<count { boot.send(event) }
        if buffered {
            do { try await boot.run() } catch { fatalError("an empty boot cannot fail: \(error)") }
        }
        await boot.finish()
    }
    return Double(count) / (nanoseconds(elapsed) / 1e9)
}

/// Events per second through a raw unbounded `AsyncStream` to one consumer that does nothing.
private func rawStreamRate(_ count: Int) async -> Double {
    let elapsed = await measure {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        let consumer = Task { for await _ in stream {} }
        for event in 0..<count { continuation.yield(event) }
        continuation.finish()
        await consumer.value
    }
    return Double(count) / (nanoseconds(elapsed) / 1e9)
}
