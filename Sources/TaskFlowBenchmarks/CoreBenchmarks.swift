import Synchronization
import TaskFlow

/// The core engine's performance figures, each beside the raw Swift it replaces, measured in the
/// same run so machine load and compiler version affect both sides alike:
///
/// | figure              | TaskFlow                                                                         | raw baseline (fair because…)                                                                 |
/// |---------------------|----------------------------------------------------------------------------------|----------------------------------------------------------------------------------------------|
/// | background step     | `flow.task` with no-op closures, no observer                                     | one awaited async call: the least a step could cost                                          |
/// | step, 1 observer    | the same steps: the flow's own time while one observer drains `manager.events`   | the same awaited call: events leave the flow in batches, so this is what they add to it      |
/// | event delivery      | body start → the observer has the flow's `completed` event, per step (same runs) | a raw `AsyncStream` carrying two events per step to one consumer (info)                      |
/// | group child         | a child of `flow.group`                                                          | a `withThrowingTaskGroup` child: what a group is built on                                    |
/// | foreground step     | `flow.main` from a flow                                                          | `await MainActor.run {}` from a background task                                              |
/// | lock throughput     | empty flows through `execute(...).value`, 1,000 tasks, 10 % writes               | a phase-fair `Mutex` + continuation lock, same tasks/mix, each task looping acquire/release  |
/// | lock, task per pair | the same flows                                                                   | the same raw lock, each pair in its own awaited `Task.detached`: the task every flow runs in |
/// | writer wait         | submit → body start under 1,000 readers                                          | the length of the read phase it had to wait for                                              |
/// | cancel latency      | step end → first revert start                                                    | a task that checks a flag after its await and reverts                                        |
/// | memory              | bytes per completed flow kept for undo                                           | an array of the same number of revert closures                                               |
///
/// The figures the diagnostics start from are recorded in ``CoreFigures/lastRun`` as soon as they
/// are measured, so `runCoreDiagnostics()` compares its variants with these values instead of
/// measuring the same workloads again. Workloads are sized so the whole run stays well under a minute in release.
@concurrent
func runCoreBenchmarks() async {
    var table = ResultTable(title: "TaskFlow core (release, one run; baselines measured in the same run)")
    do {
        try await benchmarkBackgroundSteps(&table)
        try await benchmarkEmptyFlows(&table)
        try await benchmarkGroupChildren(&table)
        try await benchmarkForegroundSteps(&table)
        try await benchmarkLockThroughput(&table)
        try await benchmarkWriterWait(&table)
        try await benchmarkCancelLatency(&table)
        try await benchmarkMemory(&table)
    } catch {
        print("core benchmarks stopped early: \(error)")
    }
    print("")
    print(table.render())
    print("")
}

private func progress(_ what: String) {
    print("· \(what)…")
}

private func verdict(_ met: Bool) -> ResultTable.Verdict { met ? .met : .missed }

// MARK: - Workloads shared with the diagnostics

/// The workloads of the main table. The diagnostics vary one parameter at a time from these, so
/// their variants and the main table's figures they are compared with have the same size.
enum CoreWorkload {
    /// No-op steps run in one write flow, per measurement.
    static let steps = 50_000
    /// Children of one group, and how many groups are timed.
    static let groupChildren = 1_000
    static let groupReps = 40
    /// Empty flows: 1,000 tasks, each submitting 100 flows in a row, every 10th a write.
    static let lockMix = LockMix(tasks: 1_000, perTask: 100, writeEvery: 10)
    /// Write flows run one after another for a memory reading, and steps per flow.
    static let memoryFlows = 10_000
    static let memorySteps = 10
}

/// What the main table measured in this process, for the diagnostics. A figure is nil when the
/// main table stopped before measuring it; the diagnostics then measure it the same way.
struct CoreFigures: Sendable {
    /// Nanoseconds per no-op `flow.task` step with a revert, no observer.
    var step: Double?
    /// The same steps with one observer: the flow's own time and the delivery time, per step.
    var observedStep: StepTiming?
    /// Nanoseconds per child of `flow.group`, children with a revert.
    var groupChild: Double?
    /// Empty flows per second, `CoreWorkload.lockMix`.
    var flowsPerSecond: Double?
    /// Raw lock pairs per second, one awaited `Task.detached` per pair, same mix.
    var detachedPairsPerSecond: Double?
    /// Bytes per kept write flow of `CoreWorkload.memorySteps` steps with a revert.
    var keptBytesPerFlow: Double?

    /// The figures of this process's main table so far.
    static var lastRun: CoreFigures { store.withLock { $0 } }

    /// Records a figure as soon as it is measured.
    static func record(_ change: (inout CoreFigures) -> Void) {
        store.withLock { change(&$0) }
    }

    private static let store = Mutex(CoreFigures())
}

/// A measurement whose premise failed (for example, an observer that never saw the event it
/// waits for): reported instead of a figure that would mean something else.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Raw building blocks

/// One awaited async call the optimiser cannot remove: the baseline for "a step that does
/// nothing" and the work every raw child or revert does.
@inline(never)
func opaqueAsyncCall(_ value: Int) async -> Int {
    value &+ 1
}

/// A flag shared between tasks.
final class SharedFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// When a step ended and when the first revert started, written from inside a flow.
final class CancelProbe: Sendable {
    private struct Marks {
        var stepEnd: ContinuousClock.Instant?
        var revertStart: ContinuousClock.Instant?
    }

    private let marks = Mutex(Marks())

    func stepEnded() { marks.withLock { $0.stepEnd = .now } }

    /// Only the first revert counts.
    func revertStarted() {
        let now = ContinuousClock.now
        marks.withLock { marks in
            if marks.revertStart == nil { marks.revertStart = now }
        }
    }

    /// Nanoseconds from the step's end to the first revert's start, if both happened.
    var latency: Double? {
        marks.withLock { marks in
            guard let end = marks.stepEnd, let start = marks.revertStart else { return nil }
            return nanoseconds(start - end)
        }
    }
}

/// When a flow body (or a raw critical section) ran.
struct Interval: Sendable {
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant
}

// MARK: - Background step

private func benchmarkBackgroundSteps(_ table: inout ResultTable) async throws {
    progress("background steps")
    let steps = CoreWorkload.steps
    let baseline = await medianOf(5) {
        var accumulator = 0
        let elapsed = await measure {
            for _ in 0..<steps { accumulator = await opaqueAsyncCall(accumulator) }
        }
        precondition(accumulator == steps)
        return nanoseconds(elapsed) / Double(steps)
    }
    _ = try await timeSteps(steps / 10, .taskWithRevert, observed: false) // warm-up
    _ = try await timeSteps(steps / 10, .taskWithRevert, observed: true)
    // Interleaved, so a drift in machine load affects the observed and unobserved runs alike.
    // Each observed run gives both the flow's own time and the delivery time.
    var unobserved: [Double] = []
    var observed: [StepTiming] = []
    for _ in 0..<5 {
        unobserved.append(try await timeSteps(steps, .taskWithRevert, observed: false).flow)
        observed.append(try await timeSteps(steps, .taskWithRevert, observed: true))
    }
    let step = Samples(unobserved).median
    let observedStep = StepTiming(median: observed)
    CoreFigures.record { $0.step = step; $0.observedStep = observedStep }

    for (label, value) in [
        ("no-op flow.task step, no observer", step),
        ("no-op flow.task step, 1 observer (flow's own time)", observedStep.flow),
    ] {
        table.add(
            label, taskFlow: formatNanoseconds(value), baseline: formatNanoseconds(baseline) + " (await call)",
            ratio: formatRatio(value / baseline), target: "≤ 1 µs/step", verdict: verdict(value <= 1_000))
    }

    _ = await rawStreamPerStep(steps / 10) // warm-up
    let stream = await medianOf(5) { await rawStreamPerStep(steps) }
    if let delivered = observedStep.delivered {
        table.add(
            "events delivered to 1 observer, per step", taskFlow: formatNanoseconds(delivered),
            baseline: formatNanoseconds(stream) + " (raw AsyncStream)", ratio: formatRatio(delivered / stream),
            target: "info", verdict: .info)
    }
}

/// The kinds of no-op step the benchmarks time.
enum NoOpStep {
    /// `flow.task` with a revert: what the main table measures.
    case taskWithRevert
    /// `flow.task` with `revert: nil`.
    case taskWithoutRevert
    /// `flow.update` on a `Void` state: no `TaskContext` is built.
    case update

    func run(in flow: FlowContext<Void>) async throws {
        switch self {
        case .taskWithRevert: try await flow.task(title: "no-op", apply: { _ in }, revert: { _, _ in })
        case .taskWithoutRevert: try await flow.task(title: "no-op", apply: { _ in })
        case .update: try await flow.update(title: "no-op") { _ in }
        }
    }
}

/// Per-step times of one write flow that runs no-op steps.
struct StepTiming: Sendable {
    /// Nanoseconds per step of the flow's own time, from its body's start to its end.
    let flow: Double
    /// With an observer of `manager.events`: nanoseconds per step from the body's start until
    /// the observer has received the flow's `completed` status event. Nil without an observer.
    let delivered: Double?

    init(flow: Double, delivered: Double?) {
        self.flow = flow
        self.delivered = delivered
    }

    /// The median of each time over several runs, taken separately.
    init(median runs: [StepTiming]) {
        let delivered = runs.compactMap(\.delivered)
        self.init(
            flow: Samples(runs.map(\.flow)).median,
            delivered: delivered.count == runs.count ? Samples(delivered).median : nil)
    }
}

/// Runs `count` no-op steps of kind `step` in one write flow on a fresh manager, with one
/// observer draining `manager.events` if `observed`, and times them per step.
func timeSteps(_ count: Int, _ step: NoOpStep, observed: Bool) async throws -> StepTiming {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    var observer: Task<ContinuousClock.Instant?, Never>?
    if observed {
        let events = manager.events // subscribes now, before the flow emits anything
        observer = Task {
            for await event in events {
                if case .statusChanged(_, .completed) = event { return ContinuousClock.now }
            }
            return nil
        }
    }
    let body = try await manager.execute(title: "no-op steps", access: .write) { flow in
        let start = ContinuousClock.now
        for _ in 0..<count { try await step.run(in: flow) }
        return Interval(start: start, end: .now)
    }.value
    let flow = nanoseconds(body.end - body.start) / Double(count)
    guard let observer else { return StepTiming(flow: flow, delivered: nil) }
    guard let delivered = await observer.value else {
        throw BenchmarkFailure(description: "the observer's stream ended before the flow's completed event")
    }
    return StepTiming(flow: flow, delivered: nanoseconds(delivered - body.start) / Double(count))
}

/// A raw `AsyncStream` with one consumer, two events per "step" around an awaited call, then a
/// last one the consumer waits for: the nanoseconds per step until the consumer has it, which is
/// what delivering the same events costs without the hub.
private func rawStreamPerStep(_ count: Int) async -> Double {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    let consumer = Task { () -> ContinuousClock.Instant in
        for await value in stream where value < 0 { return .now }
        return .now
    }
    let start = ContinuousClock.now
    for index in 0..<count {
        continuation.yield(index)
        _ = await opaqueAsyncCall(index)
        continuation.yield(index)
    }
    continuation.yield(-1)
    let end = await consumer.value
    continuation.finish()
    return nanoseconds(end - start) / Double(count)
}

// MARK: - Group child

private func benchmarkGroupChildren(_ table: inout ResultTable) async throws {
    progress("group children")
    let children = CoreWorkload.groupChildren
    let reps = CoreWorkload.groupReps
    _ = try await timeComposite(children, reps: 3, parallel: true, revert: true) // warm-up
    _ = try await timeRawGroupChildren(children, reps: 3)
    let raw = try await timeRawGroupChildren(children, reps: reps)
    let flow = try await timeComposite(children, reps: reps, parallel: true, revert: true)
    CoreFigures.record { $0.groupChild = flow }
    table.add(
        "flow.group child (\(children) no-op children)", taskFlow: formatNanoseconds(flow),
        baseline: formatNanoseconds(raw) + " (task group)", ratio: formatRatio(flow / raw),
        target: "≤ 1.25× raw child", verdict: verdict(flow / raw <= 1.25))
}

/// Median nanoseconds per child of `flow.group` (or `flow.sequence` unless `parallel`) with
/// `children` no-op background steps, built inside the timed call as a caller writes it.
func timeComposite(_ children: Int, reps: Int, parallel: Bool, revert: Bool) async throws -> Double {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let perChild = try await manager.execute(title: "composites", access: .write) { flow in
        func build(_ builder: CompositeBuilder<Void>) {
            for _ in 0..<children {
                if revert {
                    builder.task(title: "child", apply: { _ in }, revert: { _, _ in })
                } else {
                    builder.task(title: "child", apply: { _ in })
                }
            }
        }
        var perChild: [Double] = []
        for _ in 0..<reps {
            let elapsed = try await measure {
                if parallel {
                    try await flow.group(title: "group", build)
                } else {
                    try await flow.sequence(title: "sequence", build)
                }
            }
            perChild.append(nanoseconds(elapsed) / Double(children))
        }
        return perChild
    }.value
    return Samples(perChild).median
}

/// Median nanoseconds per child of a raw throwing task group whose children make one call.
private func timeRawGroupChildren(_ children: Int, reps: Int) async throws -> Double {
    var perChild: [Double] = []
    for _ in 0..<reps {
        let elapsed = try await measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for child in 0..<children {
                    group.addTask { _ = await opaqueAsyncCall(child) }
                }
                try await group.waitForAll()
            }
        }
        perChild.append(nanoseconds(elapsed) / Double(children))
    }
    return Samples(perChild).median
}

// MARK: - Foreground step

private func benchmarkForegroundSteps(_ table: inout ResultTable) async throws {
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

// MARK: - Lock throughput

private func benchmarkLockThroughput(_ table: inout ResultTable) async throws {
    progress("lock throughput")
    let mix = CoreWorkload.lockMix
    // The raw inline loop is much faster, so it runs 10× as long for a steadier rate; the
    // tasks and the read/write mix are the same.
    let inlineMix = mix.with(perTask: mix.perTask * 10)
    _ = try await flowsPerSecond(mix.with(perTask: 5)) // warm-up
    _ = try await rawPairsPerSecond(mix.with(perTask: 50), .inline)
    _ = try await rawPairsPerSecond(mix.with(perTask: 5), .detachedTask)
    // Interleaved, so a drift in machine load affects all three alike.
    var flowRuns: [Double] = []
    var inlineRuns: [Double] = []
    var detachedRuns: [Double] = []
    for _ in 0..<3 {
        flowRuns.append(try await flowsPerSecond(mix))
        inlineRuns.append(try await rawPairsPerSecond(inlineMix, .inline))
        detachedRuns.append(try await rawPairsPerSecond(mix, .detachedTask))
    }
    let flows = Samples(flowRuns).median
    let inline = Samples(inlineRuns).median
    let detached = Samples(detachedRuns).median
    CoreFigures.record { $0.flowsPerSecond = flows; $0.detachedPairsPerSecond = detached }
    table.add(
        "empty flows, \(mix.tasks) tasks, 10% write", taskFlow: formatRate(flows, unit: "flow"),
        baseline: formatRate(inline, unit: "pair") + " (raw lock)", ratio: formatRatio(flows / inline),
        target: "≥ 0.6× raw lock", verdict: verdict(flows / inline >= 0.6))
    table.add(
        "same flows vs raw lock, one Task.detached per pair, awaited", taskFlow: formatRate(flows, unit: "flow"),
        baseline: formatRate(detached, unit: "pair") + " (task per pair)", ratio: formatRatio(flows / detached),
        target: "≥ 0.6× raw lock", verdict: verdict(flows / detached >= 0.6))
}

/// A lock workload: `tasks` tasks each make `perTask` acquisitions one after another.
struct LockMix: Sendable {
    let tasks: Int
    let perTask: Int
    /// Every `writeEvery`-th acquisition is a write, counted per task from an offset equal to
    /// the task's index, so writes are spread evenly over time; nil: reads only.
    let writeEvery: Int?

    func isWrite(worker: Int, index: Int) -> Bool {
        guard let writeEvery else { return false }
        return (worker + index) % writeEvery == 0
    }

    /// The same tasks and mix, run for a different length.
    func with(perTask: Int) -> LockMix {
        LockMix(tasks: tasks, perTask: perTask, writeEvery: writeEvery)
    }
}

/// Acquisitions per second when `mix.tasks` tasks each call `acquire` `mix.perTask` times in a
/// row, telling it whether the acquisition is a write.
private func acquisitionsPerSecond(
    _ mix: LockMix, _ acquire: @escaping @Sendable (_ write: Bool) async throws -> Void
) async throws -> Double {
    let elapsed = try await measure {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<mix.tasks {
                group.addTask {
                    for index in 0..<mix.perTask {
                        try await acquire(mix.isWrite(worker: worker, index: index))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
    return Double(mix.tasks * mix.perTask) / (nanoseconds(elapsed) / 1e9)
}

/// Empty flows per second on a fresh manager: each acquisition submits an empty read or write
/// flow and awaits its value.
func flowsPerSecond(_ mix: LockMix) async throws -> Double {
    let manager = TaskFlowManager()
    return try await acquisitionsPerSecond(mix) { write in
        try await manager.execute(title: "empty", access: write ? .write : .read) { _ in }.value
    }
}

/// How each acquisition of the raw baseline runs.
enum RawPairStructure {
    /// The task acquires and releases the raw lock itself, in its loop.
    case inline
    /// The pair runs in its own `Task.detached`, which the task awaits: the structure every flow
    /// has, since `execute` returns a handle at once and the body runs in a task of its own.
    case detachedTask
    /// An empty `Task.detached`, awaited, and no lock: what that structure alone costs.
    case detachedTaskWithoutLock
}

/// Lock/unlock pairs (or, without the lock, awaited tasks) per second on a fresh raw lock.
func rawPairsPerSecond(_ mix: LockMix, _ structure: RawPairStructure) async throws -> Double {
    let lock = RawReadWriteLock()
    @Sendable func pair(write: Bool) async {
        if write {
            await lock.lockWrite()
            lock.unlockWrite()
        } else {
            await lock.lockRead()
            lock.unlockRead()
        }
    }
    return try await acquisitionsPerSecond(mix) { write in
        switch structure {
        case .inline: await pair(write: write)
        case .detachedTask: await Task.detached { await pair(write: write) }.value
        case .detachedTaskWithoutLock: await Task.detached {}.value
        }
    }
}

// MARK: - Writer wait

private func benchmarkWriterWait(_ table: inout ResultTable) async throws {
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

// MARK: - Cancel latency

private func benchmarkCancelLatency(_ table: inout ResultTable) async throws {
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
private func addComparison(
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

// MARK: - Memory

private func benchmarkMemory(_ table: inout ResultTable) async throws {
    guard MemoryProbe.isAvailable else { return }
    progress("memory per flow")
    let flows = CoreWorkload.memoryFlows
    let steps = CoreWorkload.memorySteps
    let raw = await medianOf(3) { rawUndoLogBytesPerFlow(flows: flows, steps: steps) }
    let kept = try await medianOf(3) { try await bytesPerFlow(flows: flows, steps: steps, historyLimit: flows) }
    CoreFigures.record { $0.keptBytesPerFlow = kept }
    let released = try await medianOf(3) { try await bytesPerFlow(flows: flows, steps: steps, historyLimit: 0) }
    table.add(
        "memory per kept flow (\(steps) steps, undo limit ≥ N)", taskFlow: formatBytes(kept),
        baseline: formatBytes(raw) + " (\(steps) closures)", ratio: formatRatio(kept / raw),
        target: "info (malloc_info)", verdict: .info)
    table.add(
        "memory per finished flow, undo limit 0", taskFlow: formatBytes(released), baseline: "0 B",
        ratio: "—", target: "≈ 0 (< 16 B/flow)", verdict: verdict(released < 16))
}

/// Heap growth per completed write flow of `steps` no-op `flow.task` steps (with a revert unless
/// `revert` is false), over `flows` flows run one after another on one manager, read with
/// `MemoryProbe` (glibc `malloc_info`, the figure `mallinfo2()` gives) while the manager is still
/// alive.
func bytesPerFlow(flows: Int, steps: Int, historyLimit: Int, revert: Bool = true) async throws -> Double {
    let step: NoOpStep = revert ? .taskWithRevert : .taskWithoutRevert
    func run(on manager: TaskFlowManager<Void>, flows: Int) async throws {
        for _ in 0..<flows {
            try await manager.execute(title: "kept", access: .write) { flow in
                for _ in 0..<steps { try await step.run(in: flow) }
            }.value
        }
    }
    // Warm-up on a throwaway manager, so one-time allocations (type metadata, thread pools,
    // allocator caches) are not charged to the flows.
    try await run(on: TaskFlowManager(undoHistoryLimit: historyLimit), flows: 500)
    let manager = TaskFlowManager(undoHistoryLimit: historyLimit)
    let before = MemoryProbe.allocatedBytes() ?? 0
    try await run(on: manager, flows: flows)
    let after = MemoryProbe.allocatedBytes() ?? 0
    withExtendedLifetime(manager) {}
    return Double(after - before) / Double(flows)
}

/// What a hand-written undo history costs: per flow, an array of `steps` revert closures, each
/// capturing which flow and step it undoes.
private func rawUndoLogBytesPerFlow(flows: Int, steps: Int) -> Double {
    let before = MemoryProbe.allocatedBytes() ?? 0
    var history: [[@Sendable () async -> Void]] = []
    for flow in 0..<flows {
        history.append((0..<steps).map { step in { _ = await opaqueAsyncCall(flow &* 16 &+ step) } })
    }
    let after = MemoryProbe.allocatedBytes() ?? 0
    withExtendedLifetime(history) {}
    return Double(after - before) / Double(flows)
}
