/// Runs a validated ``BootGraph``: each task starts as soon as everything it runs after has
/// succeeded, all in one task group, so the boot is as parallel as its dependencies allow and
/// every task is a child of the task awaiting ``Boot/run()`` (structured: cancelling that task
/// reaches each running body, and nothing outlives the run).
///
/// After the first failure, or once the awaiting task is cancelled, nothing more starts; the
/// tasks already running finish (they are not cancelled by a sibling's failure, only by a
/// cancellation of the boot itself), then the tasks that never started are reported skipped.
struct BootScheduler {
    private let graph: BootGraph
    private let progress: BootProgress
    /// How many dependencies each node still waits for.
    private var waiting: [Int]
    /// Nodes whose dependencies have all succeeded and that have not started yet.
    private var ready: [Int] = []
    private var started: [Bool]
    /// The first error a task threw.
    private var failure: (any Error)?

    /// What a child reports back: which node, when it started, and its error if it threw.
    private struct Completion: Sendable {
        let node: Int
        let startedAt: Duration
        let error: (any Error)?
    }

    init(graph: BootGraph, progress: BootProgress) {
        self.graph = graph
        self.progress = progress
        waiting = graph.dependencyCounts
        started = Array(repeating: false, count: graph.nodes.count)
        ready = waiting.indices.reversed().filter { waiting[$0] == 0 }
    }

    /// Runs every task that can run. Throws the first task's error; else `CancellationError`
    /// if the boot was cancelled before every task had started.
    mutating func run() async throws {
        await withTaskGroup(of: Completion.self) { group in
            startReady(in: &group)
            while let completion = await group.next() {
                finish(completion)
                startReady(in: &group)
            }
        }
        reportSkipped()
        if let failure { throw failure }
        if started.contains(false) { throw CancellationError() }
    }

    /// Starts every ready node, unless the boot is stopping. Observers have no body: they are
    /// done at once, which may make more nodes ready, hence the loop.
    private mutating func startReady(in group: inout TaskGroup<Completion>) {
        while failure == nil, !Task.isCancelled, let node = ready.popLast() {
            started[node] = true
            let at = progress.now
            progress.publish(.taskStarted(task: graph.nodes[node].title, at: at))
            guard let body = graph.nodes[node].body else {
                finish(Completion(node: node, startedAt: at, error: nil))
                continue
            }
            let progress = progress
            group.addTask {
                let startedAt = progress.now
                do {
                    try await body()
                    return Completion(node: node, startedAt: startedAt, error: nil)
                } catch {
                    return Completion(node: node, startedAt: startedAt, error: error)
                }
            }
        }
    }

    /// Records a node's end: a failure stops the boot; a success releases its dependents.
    private mutating func finish(_ completion: Completion) {
        let title = graph.nodes[completion.node].title
        let now = progress.now
        let elapsed = now - completion.startedAt
        if let error = completion.error {
            progress.publish(.taskFailed(task: title, at: now, elapsed: elapsed, error: String(describing: error)))
            if failure == nil { failure = error }
            return
        }
        progress.publish(.taskFinished(task: title, at: now, elapsed: elapsed))
        let node = completion.node
        // Dependents are pushed in reverse so `popLast` starts them in the order they were added.
        for dependent in graph.dependents[graph.dependentStart[node]..<graph.dependentStart[node + 1]].reversed() {
            waiting[dependent] -= 1
            if waiting[dependent] == 0 { ready.append(dependent) }
        }
    }

    private func reportSkipped() {
        for node in started.indices where !started[node] {
            progress.publish(.taskSkipped(task: graph.nodes[node].title))
        }
    }
}
