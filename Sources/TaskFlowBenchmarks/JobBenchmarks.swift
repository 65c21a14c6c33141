#if canImport(Glibc)
import Glibc
#endif
import TaskFlow
import TaskFlowSupport

/// The jobs' performance figures, each beside the raw Swift it replaces, measured in the same run:
///
/// | figure               | TaskFlow                                                         | raw baseline (fair because…)                                        |
/// |----------------------|------------------------------------------------------------------|---------------------------------------------------------------------|
/// | Job.run()            | `run()` of a no-op job                                           | one awaited async call, and one awaited call of an async closure    |
/// | one queued job       | `queue.add(job)` + `value`, one at a time                        | `Task {}` + `value`: the task a queued job needs anyway             |
/// | queue throughput     | 100,000 no-op jobs through `JobQueue(maxConcurrent: 4)`          | `withTaskGroup` keeping 4 children in flight                        |
/// | chain / DAG          | 100,000 jobs, each after the previous / after 3 random earlier   | target only (≤ 5 µs per job); a 1,000,000 chain is run and released |
/// | blocking             | 256 jobs blocking 20 ms on `blocking(threads: 256)`              | the same calls as task-group children on the cooperative pool       |
/// | flow beside blocking | a flow's no-op step latency p99 while those jobs block           | the same steps with nothing else running                            |
/// | backoff              | measured wait between attempts − `delay(forRetry:)`, p50/p99     | `Task.sleep` for the same delay − that delay                        |
@concurrent
func runJobBenchmarks() async {
    var table = ResultTable(title: "TaskFlow jobs (\(buildConfiguration), one run; baselines measured in the same run)")
    do {
        try await benchmarkPlainRun(&table)
        try await benchmarkQueuedJob(&table)
        try await benchmarkQueueThroughput(&table)
        try await benchmarkDependencies(&table)
        try await benchmarkBlocking(&table)
        try await benchmarkBackoff(&table)
    } catch {
        print("job benchmarks stopped early: \(error)")
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
}

private func note(_ what: String) {
    print("· jobs: \(what)…")
}

// MARK: - Job.run()

private func benchmarkPlainRun(_ table: inout ResultTable) async throws {
    note("Job.run()")
    let runs = 1_000_000
    let job = makeNoOpJob()
    let closure = makeNoOpClosure()
    var direct: [Double] = []
    var viaClosure: [Double] = []
    var viaJob: [Double] = []
    for _ in 0..<5 {
        // Each call feeds the next, so the optimiser can drop none of them.
        direct.append(await chained(runs) { await opaqueAsyncCall($0) })
        viaClosure.append(try await chained(runs) { try await closure($0) })
        viaJob.append(try await chained(runs) { try await $0 &+ job.run() })
    }
    let call = Samples(direct).median
    let closureCall = Samples(viaClosure).median
    let perRun = Samples(viaJob).median
    for (baseline, label) in [(call, "await call"), (closureCall, "await closure call")] {
        // One figure per baseline, named apart: the report matches a figure across runs by name.
        table.add(
            "Job.run() of a no-op job, against an \(label)", taskFlow: formatNanoseconds(perRun),
            baseline: formatNanoseconds(baseline) + " (\(label))", ratio: formatRatio(perRun / baseline),
            target: "≤ 2×", verdict: verdict(perRun <= 2 * baseline))
    }
}

/// Nanoseconds per call of `step`, each call given the previous call's result; every call adds 1.
private func chained(_ runs: Int, _ step: (Int) async throws -> Int) async rethrows -> Double {
    var accumulator = 0
    let elapsed = try await measure {
        for _ in 0..<runs { accumulator = try await step(accumulator) }
    }
    precondition(accumulator == runs)
    return nanoseconds(elapsed) / Double(runs)
}

/// A job whose body returns 1, built where the optimiser cannot see it.
@inline(never)
private func makeNoOpJob() -> Job<Int> {
    Job(title: "no-op") { _ in 1 }
}

/// The body of such a job as a bare closure (adding 1 to its argument), built where the optimiser
/// cannot see it: what a job's body is.
@inline(never)
private func makeNoOpClosure() -> @Sendable (Int) async throws -> Int {
    { $0 &+ 1 }
}

// MARK: - One queued job

private func benchmarkQueuedJob(_ table: inout ResultTable) async throws {
    note("one queued job")
    let runs = 20_000
    let queue = JobQueue(title: "bench", maxConcurrent: 4)
    let job = Job(title: "no-op") { _ in 1 }
    // Interleaved, so a drift in machine load affects both sides alike.
    var raw: [Double] = []
    var queued: [Double] = []
    for _ in 0..<6 {
        raw.append(await perRun(runs) { await Task { 1 }.value })
        queued.append(try await perRun(runs) { try await queue.add(job).value })
    }
    let baseline = Samples(Array(raw.dropFirst())).median
    let figure = Samples(Array(queued.dropFirst())).median
    table.add(
        "no-op job: queue.add + value", taskFlow: formatNanoseconds(figure),
        baseline: formatNanoseconds(baseline) + " (Task {} + value)", ratio: formatRatio(figure / baseline),
        target: "≤ 1.5×", verdict: verdict(figure <= 1.5 * baseline))
}

/// Nanoseconds per call of `body`, called `runs` times in a row; `body` returns 1 each time.
private func perRun(_ runs: Int, _ body: () async throws -> Int) async rethrows -> Double {
    var accumulator = 0
    let elapsed = try await measure {
        for _ in 0..<runs { accumulator &+= try await body() }
    }
    precondition(accumulator == runs)
    return nanoseconds(elapsed) / Double(runs)
}

// MARK: - Throughput

private func benchmarkQueueThroughput(_ table: inout ResultTable) async throws {
    note("100,000 jobs, 4 at a time")
    let jobs = 100_000
    var raw: [Double] = []
    var queued: [Double] = []
    for _ in 0..<4 {
        raw.append(await rawGroupThroughput(jobs, inFlight: 4))
        queued.append(try await queueThroughput(jobs, maxConcurrent: 4))
    }
    let baseline = Samples(Array(raw.dropFirst())).median
    let figure = Samples(Array(queued.dropFirst())).median
    table.add(
        "100,000 no-op jobs, JobQueue(maxConcurrent: 4)", taskFlow: formatRate(figure, unit: "jobs"),
        baseline: formatRate(baseline, unit: "jobs") + " (task group, 4 in flight)",
        ratio: formatRatio(figure / baseline), target: "≥ 0.5×", verdict: verdict(figure >= 0.5 * baseline))
}

/// Jobs per second through a fresh queue: add them all, then await every value.
private func queueThroughput(_ jobs: Int, maxConcurrent: Int) async throws -> Double {
    let queue = JobQueue(title: "throughput", maxConcurrent: maxConcurrent)
    let job = Job(title: "no-op") { _ in 1 }
    var total = 0
    let elapsed = try await measure {
        let handles = (0..<jobs).map { _ in queue.add(job) }
        // Last first: the queue keeps its 4 slots busy on its own, so the caller need not wake
        // for every job; by the time the last one is done, the others are too.
        for handle in handles.reversed() { total &+= try await handle.value }
    }
    precondition(total == jobs)
    return Double(jobs) / (nanoseconds(elapsed) / 1e9)
}

/// Children per second through a task group that keeps `inFlight` children running.
private func rawGroupThroughput(_ jobs: Int, inFlight: Int) async -> Double {
    var total = 0
    let elapsed = await measure {
        total = await withTaskGroup(of: Int.self) { group in
            var added = 0
            var sum = 0
            while added < min(inFlight, jobs) {
                group.addTask { await opaqueAsyncCall(0) }
                added += 1
            }
            while let value = await group.next() {
                sum &+= value
                if added < jobs {
                    group.addTask { await opaqueAsyncCall(0) }
                    added += 1
                }
            }
            return sum
        }
    }
    precondition(total == jobs)
    return Double(jobs) / (nanoseconds(elapsed) / 1e9)
}

// MARK: - Dependencies

private func benchmarkDependencies(_ table: inout ResultTable) async throws {
    note("dependency chain and random graph")
    let jobs = 100_000
    let chain = try await medianOf(3) { try await dependencyRun(jobs, dependencies: 1, seed: 1).perJob }
    table.add(
        "100,000-job chain, schedule + run", taskFlow: formatNanoseconds(chain) + "/job", baseline: "—",
        ratio: "—", target: "≤ 5 µs/job", verdict: verdict(chain <= 5_000))
    let dag = try await medianOf(3) { try await dependencyRun(jobs, dependencies: 3, seed: 2).perJob }
    table.add(
        "100,000-job random DAG (3 deps each)", taskFlow: formatNanoseconds(dag) + "/job", baseline: "—",
        ratio: "—", target: "≤ 5 µs/job", verdict: verdict(dag <= 5_000))

    note("1,000,000-job chain, run and released")
    let before = MemoryProbe.allocatedBytes()
    let million = try await dependencyRun(1_000_000, dependencies: 1, seed: 3)
    let after = MemoryProbe.allocatedBytes()
    var retained = "—"
    if let before, let after {
        retained = formatBytes(Double(after - before) / 1_000_000) + "/job left after release"
    }
    table.add(
        "1,000,000-job chain, run + released", taskFlow: formatNanoseconds(million.perJob) + "/job",
        baseline: "—", ratio: "—", target: "no crash", verdict: .met)
    if let peak = million.bytesPerJob {
        table.add(
            "memory per waiting job (1,000,000 chain)", taskFlow: formatBytes(peak), baseline: retained,
            ratio: "—", target: "linear", verdict: .info)
    }
}

/// Adds `jobs` no-op jobs to a queue of 4, each after `dependencies` earlier ones (the previous
/// one when 1, else random ones from a seeded generator), awaits them all and releases every
/// handle: nanoseconds per job, and the heap held per job once all were added.
private func dependencyRun(_ jobs: Int, dependencies: Int, seed: UInt64) async throws -> (perJob: Double, bytesPerJob: Double?) {
    var random = seed   // a linear congruential generator: seeded, so every run builds the same graph
    var bytesPerJob: Double?
    let elapsed = try await measure {
        let queue = JobQueue(title: "graph", maxConcurrent: 4)
        let job = Job(title: "no-op") { _ in 1 }
        let before = MemoryProbe.allocatedBytes()
        queue.pause()   // hold everything so the memory reading sees every job waiting
        var handles: [JobHandle<Int>] = []
        handles.reserveCapacity(jobs)
        for index in 0..<jobs {
            let after: [any JobDependency]
            if index == 0 {
                after = []
            } else if dependencies == 1 {
                after = [handles[index - 1]]
            } else {
                after = (0..<dependencies).map { _ in
                    random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return handles[Int((random >> 33) % UInt64(index))]
                }
            }
            handles.append(queue.add(job, after: after))
        }
        if let before, let now = MemoryProbe.allocatedBytes() { bytesPerJob = Double(now - before) / Double(jobs) }
        queue.resume()
        for handle in handles.reversed() { _ = try await handle.value }   // last first, as above
    }
    return (nanoseconds(elapsed) / Double(jobs), bytesPerJob)
}

// MARK: - Blocking work

private func benchmarkBlocking(_ table: inout ResultTable) async throws {
    note("256 blocking jobs beside a flow")
    let count = 256
    let quiet = try await flowStepLatencies(while: nil)
    let queue = JobQueue.blocking(title: "blocking", threads: count)
    let blockingJob = Job(title: "usleep 20 ms") { _ in
        usleep(20_000)
        return 1
    }
    // Warm up: the threads exist from the start, this only pages in their stacks.
    for handle in (0..<count).map({ _ in queue.add(blockingJob) }) { _ = try await handle.value }
    var jobsElapsed = Duration.zero
    let busy = try await flowStepLatencies {
        jobsElapsed = try await measure {
            let handles = (0..<count).map { _ in queue.add(blockingJob) }
            for handle in handles { _ = try await handle.value }
        }
    }
    let pool = await measure {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count { group.addTask { usleep(20_000) } }
        }
    }
    table.add(
        "256 jobs × 20 ms usleep, blocking(threads: 256)", taskFlow: formatNanoseconds(nanoseconds(jobsElapsed)),
        baseline: formatNanoseconds(nanoseconds(pool)) + " (task group on the pool)",
        ratio: formatRatio(nanoseconds(jobsElapsed) / nanoseconds(pool)), target: "≤ 0.2 s",
        verdict: verdict(jobsElapsed <= .milliseconds(200)))
    table.add(
        "flow step latency p99 beside them", taskFlow: formatNanoseconds(busy.percentile(99)),
        baseline: formatNanoseconds(quiet.percentile(99)) + " (no load)",
        ratio: formatRatio(busy.percentile(99) / quiet.percentile(99)), target: "info", verdict: .info)
}

/// Latencies of no-op background steps of one flow, one every millisecond, while `load` runs
/// (or 200 of them without load).
private func flowStepLatencies(while load: (() async throws -> Void)?) async throws -> Samples {
    let manager = TaskFlowManager()
    let done = SharedFlag()
    let limit = load == nil ? 200 : Int.max
    let flow = manager.execute(title: "stepping", access: .read) { flow -> [Double] in
        var latencies: [Double] = []
        while latencies.count < limit, !done.isSet {
            let start = ContinuousClock.now
            try await flow.task(title: "step", apply: { _ in })
            latencies.append(nanoseconds(ContinuousClock.now - start))
            try await Task.sleep(for: .milliseconds(1))
        }
        return latencies
    }
    if let load {
        try await load()
        done.set()
    }
    return Samples(try await flow.value)
}

// MARK: - Backoff accuracy

private func benchmarkBackoff(_ table: inout ResultTable) async throws {
    note("backoff accuracy")
    let delay = Duration.milliseconds(20)
    let samples = 50
    let marks = BackoffMarks()
    let job = Job<Int>(title: "always fails") { job in
        marks.attemptStarted()
        throw BenchmarkFailure(description: "attempt \(job.attempt)")
    }.retry(.constant(maxAttempts: samples + 1, delay: delay))
    _ = try? await job.run()
    let policy = RetryPolicy.constant(maxAttempts: 2, delay: delay)
    let late = Samples(marks.gaps.map { nanoseconds($0 - policy.delay(forRetry: 1)) })
    var raw: [Double] = []
    for _ in 0..<samples {
        let start = ContinuousClock.now
        try await Task.sleep(for: delay)
        raw.append(nanoseconds(ContinuousClock.now - start - delay))
    }
    let sleep = Samples(raw)
    for (label, p) in [("p50", 50.0), ("p99", 99.0)] {
        table.add(
            "backoff of 20 ms: measured − delay(forRetry:), \(label)", taskFlow: "+" + formatNanoseconds(late.percentile(p)),
            baseline: "+" + formatNanoseconds(sleep.percentile(p)) + " (Task.sleep)", ratio: "—",
            target: "≤ +10 ms", verdict: verdict(late.percentile(p) <= 10_000_000 && late.min >= 0))
    }
}

/// When each attempt started: the gaps between them are the waits plus an attempt's own
/// (no-op) time.
private final class BackoffMarks: Sendable {
    private let starts = Protected<[ContinuousClock.Instant]>([])

    func attemptStarted() {
        let now = ContinuousClock.now
        starts.withLock { $0.append(now) }
    }

    var gaps: [Duration] {
        starts.withLock { starts in zip(starts.dropFirst(), starts).map { $0 - $1 } }
    }
}
