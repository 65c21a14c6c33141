import Synchronization
import TaskFlow
import TaskFlowSupport

/// The core engine's performance figures, each beside the raw Swift it replaces, measured in the
/// same run so machine load and compiler version affect both sides alike:
///
/// | figure              | TaskFlow                                                                         | raw baseline (fair because…)                                                                 |
/// |---------------------|----------------------------------------------------------------------------------|----------------------------------------------------------------------------------------------|
/// | background step     | `flow.task` with no-op closures, no observer                                     | one awaited async call: the least a step could cost                                          |
/// | step, 1 observer    | the same steps: the flow's own time while one observer drains `manager.events`   | the same awaited call: the flow only queues its events, so this is what they add to it       |
/// | event delivery      | body start → the observer has the flow's `completed` event, per step (same runs) | a raw `AsyncStream` carrying two events per step to one consumer (info)                      |
/// | main-actor delivery | the same, the observer iterating on the main actor (run last: see its function)  | the same raw `AsyncStream`, consumed on the main actor (info)                                |
/// | empty flow          | `execute` + run + `value` of an empty flow, no observer, 1k–100k submitted at once  | `Task.detached {}` + `value`, submitted and awaited the same way: every flow is one such task |
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
    var table = ResultTable(title: "TaskFlow core (\(buildConfiguration), one run; baselines measured in the same run)")
    do {
        try await benchmarkBackgroundSteps(&table)
        try await benchmarkEmptyFlows(&table)
        try await benchmarkGroupChildren(&table)
        try await benchmarkForegroundSteps(&table)
        try await benchmarkLockThroughput(&table)
        try await benchmarkWriterWait(&table)
        try await benchmarkCancelLatency(&table)
        try await benchmarkMemory(&table)
        try await benchmarkMainActorObserver(&table)
    } catch {
        print("core benchmarks stopped early: \(error)")
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
}

func progress(_ what: String) {
    print("· \(what)…")
}

func verdict(_ met: Bool) -> ResultTable.Verdict { met ? .met : .missed }

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

    private static let store = Protected(CoreFigures())
}

/// A measurement whose premise failed (for example, an observer that never saw the event it
/// waits for): reported instead of a figure that would mean something else.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}
