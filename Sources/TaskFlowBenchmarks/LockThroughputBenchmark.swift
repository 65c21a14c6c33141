import Synchronization
import TaskFlow

func benchmarkLockThroughput(_ table: inout ResultTable) async throws {
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
