import TaskFlow

/// Variants of the core figures that explain where the time and memory go when a target is
/// missed — no profiler, only changes of workload measured in the same run. Each variant changes
/// one parameter of a main-table workload (`CoreWorkload`) and is set beside that main-table
/// figure, which is taken from ``CoreFigures/lastRun`` rather than measured again (only if the
/// main table stopped before it is it measured here, the same way):
///
/// - a background step with `revert: nil`, and an `update` step (no `TaskContext`), against the
///   main table's step with a revert, split what registering a revert and building a step
///   context cost (what one observer adds is in the main table: its rows (b) and (c));
/// - group children without a revert, and the same children run as a sequence, split the task
///   group from the per-step bookkeeping;
/// - the manager with only reads or with fewer tasks, and an awaited `Task.detached` with no lock
///   at all, split the lock from the task-per-flow structure (the raw lock with one task per pair
///   is in the main table);
/// - bytes kept per flow with 0, 1 and 10 steps, and 10 steps without a revert, split the
///   per-flow from the per-step cost.
@concurrent
func runCoreDiagnostics() async {
    var table = ResultTable(title: "Core diagnostics: variants that explain the misses (same run)")
    let measured = CoreFigures.lastRun
    do {
        try await diagnoseSteps(&table, measured)
        try await diagnoseGroups(&table, measured)
        try await diagnoseLock(&table, measured)
        try await diagnoseMemory(&table, measured)
    } catch {
        print("core diagnostics stopped early: \(error)")
    }
    BenchmarkReport.publish(table)
    print("")
}

private func info(_ table: inout ResultTable, _ figure: String, _ value: String, vs baseline: String = "", ratio: String = "") {
    table.add(figure, taskFlow: value, baseline: baseline, ratio: ratio, target: "", verdict: .info)
}

/// The main table's figure if it got that far in this run, else `measure()`.
private func mainTable(_ figure: Double?, else measure: () async throws -> Double) async rethrows -> Double {
    if let figure { return figure }
    return try await measure()
}

// MARK: - Steps

private func diagnoseSteps(_ table: inout ResultTable, _ measured: CoreFigures) async throws {
    print("· diagnostics: steps…")
    let steps = CoreWorkload.steps
    let withRevert = try await mainTable(measured.step) {
        try await medianOf(5) { try await timeSteps(steps, .taskWithRevert, observed: false).flow }
    }
    let withoutRevert = try await medianOf(5) { try await timeSteps(steps, .taskWithoutRevert, observed: false).flow }
    let update = try await medianOf(5) { try await timeSteps(steps, .update, observed: false).flow }
    info(&table, "task step with revert (main table)", formatNanoseconds(withRevert))
    info(&table, "task step, revert: nil", formatNanoseconds(withoutRevert), vs: "with revert", ratio: formatRatio(withoutRevert / withRevert))
    info(&table, "update step (no TaskContext)", formatNanoseconds(update), vs: "with revert", ratio: formatRatio(update / withRevert))
}

// MARK: - Groups

private func diagnoseGroups(_ table: inout ResultTable, _ measured: CoreFigures) async throws {
    print("· diagnostics: groups…")
    let children = CoreWorkload.groupChildren
    let reps = CoreWorkload.groupReps
    let group = try await mainTable(measured.groupChild) {
        try await timeComposite(children, reps: reps, parallel: true, revert: true)
    }
    let noRevert = try await timeComposite(children, reps: reps, parallel: true, revert: false)
    let sequence = try await timeComposite(children, reps: reps, parallel: false, revert: true)
    info(&table, "group child with revert (main table)", formatNanoseconds(group))
    info(&table, "group child, revert: nil", formatNanoseconds(noRevert), vs: "with revert", ratio: formatRatio(noRevert / group))
    info(&table, "same children as a sequence", formatNanoseconds(sequence), vs: "as a group", ratio: formatRatio(sequence / group))
}

// MARK: - Lock

private func diagnoseLock(_ table: inout ResultTable, _ measured: CoreFigures) async throws {
    print("· diagnostics: lock…")
    let mix = CoreWorkload.lockMix
    let reference = try await mainTable(measured.flowsPerSecond) {
        try await medianOf(3) { try await flowsPerSecond(mix) }
    }
    let readsOnly = LockMix(tasks: mix.tasks, perTask: mix.perTask, writeEvery: nil)
    // A tenth of the tasks, each running ten times as long: the same number of flows.
    let fewerTasks = LockMix(tasks: mix.tasks / 10, perTask: mix.perTask * 10, writeEvery: mix.writeEvery)
    let allReads = try await medianOf(3) { try await flowsPerSecond(readsOnly) }
    let fewTasks = try await medianOf(3) { try await flowsPerSecond(fewerTasks) }
    let taskOnly = try await medianOf(3) { try await rawPairsPerSecond(mix, .detachedTaskWithoutLock) }
    info(&table, "manager, \(mix.tasks) tasks, 10% write (main table)", formatRate(reference, unit: "flow"))
    info(&table, "manager, \(mix.tasks) tasks, reads only", formatRate(allReads, unit: "flow"), vs: "10% write", ratio: formatRatio(allReads / reference))
    info(&table, "manager, \(fewerTasks.tasks) tasks, 10% write", formatRate(fewTasks, unit: "flow"), vs: "\(mix.tasks) tasks", ratio: formatRatio(fewTasks / reference))
    info(&table, "Task.detached + await value, no lock", formatRate(taskOnly, unit: "task"), vs: "manager ÷ this", ratio: formatRatio(reference / taskOnly))
}

// MARK: - Memory

private func diagnoseMemory(_ table: inout ResultTable, _ measured: CoreFigures) async throws {
    guard MemoryProbe.isAvailable else { return }
    print("· diagnostics: memory…")
    let flows = CoreWorkload.memoryFlows
    let steps = CoreWorkload.memorySteps
    func kept(steps: Int, revert: Bool) async throws -> Double {
        try await medianOf(3) { try await bytesPerFlow(flows: flows, steps: steps, historyLimit: flows, revert: revert) }
    }
    let zero = try await kept(steps: 0, revert: true)
    let one = try await kept(steps: 1, revert: true)
    let full = try await mainTable(measured.keptBytesPerFlow) { try await kept(steps: steps, revert: true) }
    let fullNoRevert = try await kept(steps: steps, revert: false)
    let perStep = Double(steps)
    info(&table, "kept flow with 0 steps", formatBytes(zero))
    info(&table, "kept flow with 1 step", formatBytes(one), vs: "per step", ratio: formatBytes(one - zero))
    info(&table, "kept flow with \(steps) steps (main table)", formatBytes(full), vs: "per step", ratio: formatBytes((full - zero) / perStep))
    info(&table, "kept flow, \(steps) steps, revert: nil", formatBytes(fullNoRevert), vs: "per step", ratio: formatBytes((fullNoRevert - zero) / perStep))
}
