import TaskFlow

/// `TaskFlowBenchmarks counts <workload> <n>`: runs one workload `n` times and returns, printing
/// one short line. Made to run under a counting tool (`valgrind --tool=callgrind` for
/// instructions, memcheck for heap allocations), not to time anything:
/// `Scripts/count-costs.sh` runs each workload at two sizes and divides the difference of the
/// counts by the difference of the sizes, which cancels everything the process does once
/// (start-up, the first flow's lazy set-up, exit) and leaves the cost of one operation.
///
/// Each TaskFlow workload has a raw Swift baseline doing the same with the concurrency it is
/// built on (`CountWorkload.baseline`), so the script can print the ratio beside each figure.
/// Every workload builds what it needs once (a manager, a queue, an array reserved to `n`),
/// so the only thing that grows with `n` is the operation counted.
///
/// `TaskFlowBenchmarks counts --list` prints every workload, one per line, with its baseline
/// (`-` for none): the list `count-costs.sh` counts from, so the two never disagree.
@concurrent
func runCounts(_ arguments: [String]) async -> Int32 {
    if arguments == ["--list"] {
        for workload in CountWorkload.allCases { print(workload.rawValue, workload.baseline?.rawValue ?? "-") }
        return 0
    }
    guard arguments.count == 2, let workload = CountWorkload(rawValue: arguments[0]),
        let n = Int(arguments[1]), n > 0
    else {
        print("usage: TaskFlowBenchmarks counts <workload> <n>   (n > 0)   |   counts --list")
        print("workloads: \(CountWorkload.allCases.map(\.rawValue).joined(separator: ", "))")
        return 2
    }
    do {
        try await workload.run(n)
    } catch {
        print("counts: \(workload.rawValue) failed: \(error)")
        return 1
    }
    print("counts: \(workload.rawValue) × \(n) done")
    return 0
}

/// What `counts` can run: the engine's cheapest operations and their raw baselines, in the order
/// `count-costs.sh` prints them.
enum CountWorkload: String, CaseIterable, Sendable {
    case writeFlowAlone = "write-flow-alone"
    case readFlowAlone = "read-flow-alone"
    case writeFlowsAtOnce = "write-flows-at-once"
    case readFlowsAtOnce = "read-flows-at-once"
    case groupChild = "group-child"
    case step = "step"
    case observedStep = "observed-step"
    case updateStep = "update-step"
    case queuedJob = "queued-job"
    case lockMix = "lock-mix"
    case rawTask = "raw-task"
    case rawTasksAtOnce = "raw-tasks-at-once"
    case rawGroupChild = "raw-group-child"
    case rawUnstructuredTask = "raw-unstructured-task"
    case rawLockPair = "raw-lock-pair"
    case rawLockMix = "raw-lock-mix"

    /// The raw workload a TaskFlow workload is compared with; nil for a raw one.
    var baseline: CountWorkload? {
        switch self {
        case .writeFlowAlone, .readFlowAlone: .rawTask
        case .writeFlowsAtOnce, .readFlowsAtOnce: .rawTasksAtOnce
        case .groupChild: .rawGroupChild
        case .step, .observedStep, .updateStep: nil
        case .lockMix: .rawLockMix
        case .queuedJob: .rawUnstructuredTask
        case .rawTask, .rawTasksAtOnce, .rawGroupChild, .rawUnstructuredTask, .rawLockPair, .rawLockMix: nil
        }
    }

    /// Runs the workload `n` times (`n` operations: flows, children, jobs or tasks).
    func run(_ n: Int) async throws {
        switch self {
        case .writeFlowAlone: try await countFlowsAlone(n, access: .write)
        case .writeFlowsAtOnce: try await countFlowsAtOnce(n, access: .write)
        case .readFlowsAtOnce: try await countFlowsAtOnce(n, access: .read)
        case .readFlowAlone: try await countFlowsAlone(n, access: .read)
        case .groupChild: try await countGroupChildren(n)
        case .step: try await countSteps(n, observed: false)
        case .observedStep: try await countSteps(n, observed: true)
        case .updateStep: try await countUpdates(n)
        case .queuedJob: try await countQueuedJobs(n)
        case .rawTask: await countRawTasks(n)
        case .rawTasksAtOnce: await countRawTasksAtOnce(n)
        case .rawGroupChild: try await countRawGroupChildren(n)
        case .rawUnstructuredTask: await countRawUnstructuredTasks(n)
        case .rawLockPair: await countRawLockPairs(n)
        case .lockMix: _ = try await flowsPerSecond(try lockMixOf(n))
        case .rawLockMix: _ = try await rawPairsPerSecond(try lockMixOf(n), .detachedTask)
        }
    }
}

// MARK: - TaskFlow

/// One empty flow of `access` submitted and awaited at a time, `n` times, on a default manager
/// (no observer, undo history of 100): the whole life of an uncontended flow — register, task,
/// lock, body, complete, retire — and, for a write flow, its turn in the undo history (past the
/// first 100, each completed flow pushes the oldest out, so the count is the steady state).
/// Compared with `raw-task`: every flow is one detached task.
private func countFlowsAlone(_ n: Int, access: FlowAccess) async throws {
    let manager = TaskFlowManager()
    for _ in 0..<n {
        try await manager.execute(title: "empty", access: access) { _ in }.value
    }
}

/// `n` empty flows of `access` submitted from one task, then every value awaited, as the core
/// table's empty-flow figures: the same as `write-flow-alone` (`read-flow-alone`) plus what
/// contention adds. All but the first write flow queue for the lock and are handed it one after
/// another; read flows all enter at once and run side by side, so they meet on the registry,
/// the lock's state and the event hub instead. Compared with `raw-tasks-at-once`.
private func countFlowsAtOnce(_ n: Int, access: FlowAccess) async throws {
    let manager = TaskFlowManager()
    var handles: [TaskFlow<Void>] = []
    handles.reserveCapacity(n)
    for _ in 0..<n {
        handles.append(manager.execute(title: "empty", access: access) { _ in })
    }
    for handle in handles { try await handle.value }
}

/// One write flow running one `flow.group` of `n` no-op children, each with a no-op revert, as
/// the core table's group-child figure (`timeComposite`, undo history 0). The flow and the group
/// are paid once whatever `n` is, so the difference between two sizes is the children alone:
/// adding one to the builder, its task in the group, its step (events, record, revert log entry).
/// Compared with `raw-group-child`.
private func countGroupChildren(_ n: Int) async throws {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    try await manager.execute(title: "group", access: .write) { flow in
        try await flow.group(title: "group") { builder in
            for _ in 0..<n {
                builder.task(title: "child", apply: { _ in }, revert: { _, _ in })
            }
        }
    }.value
}

/// One write flow running `n` no-op `flow.task` steps with a revert, one after another, as the
/// core table's step figures (`timeSteps`, undo history 0), with or without one observer of the
/// manager's events, which takes every event up to the flow's `completed`. The flow is paid once
/// whatever `n` is, so the difference between two sizes is the steps alone: with an observer,
/// each step's events too (built, stamped, queued, handed to the observer's stream and taken).
/// No raw baseline: the table's is an awaited call, which costs next to nothing.
private func countSteps(_ n: Int, observed: Bool) async throws {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let observer = observed ? Task { [events = manager.events] in
        for await event in events {
            if case .statusChanged(_, .completed) = event { return }
        }
    } : nil
    try await manager.execute(title: "steps", access: .write) { flow in
        for _ in 0..<n { try await flow.task(title: "no-op", apply: { _ in }, revert: { _, _ in }) }
    }.value
    await observer?.value
}

/// One write flow running `n` `flow.update` steps, each adding 1 to an `Int` state, one after
/// another (undo history 0): a step without an inside, whose revert restores the value before
/// it. No raw baseline, as for `step`.
private func countUpdates(_ n: Int) async throws {
    let manager = TaskFlowManager(state: 0, undoHistoryLimit: 0)
    try await manager.execute(title: "updates", access: .write) { flow in
        for _ in 0..<n { try await flow.update(title: "add 1") { $0 += 1 } }
    }.value
    precondition(manager.state == n, "every update applied")
}

/// A no-op job added to a queue of 4 and its value awaited, one at a time, `n` times: the job
/// queue's own cost per job (admission, the job's task, its record and status changes).
/// Compared with `raw-unstructured-task`: the task a queued job needs anyway.
private func countQueuedJobs(_ n: Int) async throws {
    let queue = JobQueue(title: "counts", maxConcurrent: 4)
    let job = Job(title: "no-op") { _ in 1 }
    var total = 0
    for _ in 0..<n {
        total &+= try await queue.add(job).value
    }
    precondition(total == n, "every job returns 1")
}

/// The lock-throughput table's workload made `n` acquisitions long: its 1,000 tasks, each
/// making `n` / 1,000 of them in a row, one in ten a write. `lock-mix` runs each as an empty
/// flow, `raw-lock-mix` as a pair of the raw lock in an awaited `Task.detached` (the table's
/// task-per-pair baseline). `n` must be a multiple of 1,000, so that it is the count run.
private func lockMixOf(_ n: Int) throws -> LockMix {
    let tasks = CoreWorkload.lockMix.tasks
    guard n % tasks == 0 else {
        throw BenchmarkFailure(description: "lock-mix and raw-lock-mix need a multiple of \(tasks), not \(n)")
    }
    return CoreWorkload.lockMix.with(perTask: n / tasks)
}

// MARK: - Raw baselines

/// `Task.detached {}` and its `value`, one at a time: the task every flow is.
private func countRawTasks(_ n: Int) async {
    for _ in 0..<n {
        await Task.detached {}.value
    }
}

/// `n` detached empty tasks created from one task, then every value awaited: the raw side of
/// `write-flows-at-once` and `read-flows-at-once`.
private func countRawTasksAtOnce(_ n: Int) async {
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(n)
    for _ in 0..<n {
        tasks.append(Task.detached {})
    }
    for task in tasks { await task.value }
}

/// One throwing task group of `n` children, each making one awaited call the optimiser cannot
/// remove: what `flow.group` is built on, as the core table's raw group child.
/// (A throwing group, though nothing in it throws: `flow.group` runs its children in one.)
private func countRawGroupChildren(_ n: Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for child in 0..<n {
            group.addTask { _ = await opaqueAsyncCall(child) }
        }
        try await group.waitForAll()
    }
}

/// `Task { 1 }` and its `value`, one at a time: the unstructured task a queued job runs in,
/// as the jobs table's baseline.
private func countRawUnstructuredTasks(_ n: Int) async {
    var total = 0
    for _ in 0..<n {
        total &+= await Task { 1 }.value
    }
    precondition(total == n, "every task returns 1")
}

/// A write lock and unlock of the raw read/write lock, inline, one after another: the unit of
/// the lock-throughput table's raw figure, to set beside a flow's whole cost (no TaskFlow
/// workload is compared with it: every flow is a task besides its turn in the lock).
private func countRawLockPairs(_ n: Int) async {
    let lock = RawReadWriteLock()
    for _ in 0..<n {
        await lock.lockWrite()
        lock.unlockWrite()
    }
}
