import Synchronization
import TaskFlow

func benchmarkMemory(_ table: inout ResultTable) async throws {
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
