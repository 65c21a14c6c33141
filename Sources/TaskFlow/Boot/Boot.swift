import TaskFlowSupport

/// An application's start-up as a graph of named tasks (after AppTasks): each task starts as
/// soon as the tasks it runs after have succeeded, and the application's own events sent
/// meanwhile wait until the boot is over.
///
/// ```swift
/// let boot = Boot<AppEvent>(title: "Start")
/// boot.task("Load theme") { try await loadTheme() }
/// boot.task("Open store") { try await openStore() }
/// boot.task("Recover jobs", after: ["Open store"]) { try await recover() }
/// boot.observer("Log") { event in log(event) }
/// boot.send(.resized)            // buffered until the boot ends
/// try await boot.run()
/// ```
///
/// Guarantees:
/// - **Validation first.** `run()` checks the whole graph before starting anything: a
///   duplicate title, an unknown `after:` title or a cycle throws ``BootError`` (a cycle as its
///   path) and no task runs.
/// - **Maximal parallelism, structured.** Every task is a child of one task group in the task
///   awaiting `run()`, started the moment its last dependency succeeded.
/// - **Failure and cancellation.** The first task that throws stops new starts; running tasks
///   finish; `run()` rethrows that error; tasks that never started are reported skipped on the
///   progress stream. Cancelling the task awaiting `run()` does the same (running bodies see
///   `Task.isCancelled`) and `run()` throws `CancellationError`.
/// - **Events.** ``send(_:)`` buffers events until the boot ends — succeeded, failed or refused
///   alike, since observers are done from the start and the application decides what a failed
///   boot means — then forwards the buffer in the order sent, and later events directly, in
///   order. Each event reaches each observer exactly once, even when `send` races the end of
///   the boot: buffering, forwarding and the end of the boot happen under one lock.
/// - **Once.** A boot runs once: a second `run()` throws ``BootError/alreadyStarted(boot:)``
///   without touching the first run (a start-up that could re-run its tasks would open stores
///   and recover jobs twice).
///
/// The lifecycle — configuring, booting, booted, finished — is ``BootPhase``; ``finish()``
/// ends the boot's lifetime. A boot that is deinitialised closes its observers the same way.
public final class Boot<Event: Sendable>: Sendable {
    /// The boot's name, used in its errors and progress events.
    public let title: String
    private let state = Protected(BootLifecycle<Event>())

    /// An empty boot; add tasks and observers, then `run()` it.
    public init(title: String) {
        self.title = title
    }

    deinit {
        // Without this, each observer's delivery task would wait for events forever.
        _ = state.withLock { $0.finish() }
    }

    /// Adds a task that starts once every task titled in `after` has succeeded.
    ///
    /// Titles are unique among a boot's tasks and observers; a duplicate or unknown title is
    /// reported by `run()`, before anything runs. Adding a task once `run()` was called is a
    /// programmer error (a precondition failure naming the task).
    public func task(_ title: String, after: [String] = [], _ body: @escaping @Sendable () async throws -> Void) {
        let node = BootNode(title: title, after: after, body: body)
        state.withLock { $0.add(node, observer: nil, boot: self.title) }
    }

    /// Adds an observer (AppTasks' `NoOpTask`): a task that is done the moment the boot starts
    /// (tasks may run after it at no cost) and that then receives every event ``send(_:)`` lets
    /// through, in order, one at a time, for the boot's whole lifetime.
    ///
    /// `handler` runs on its own task, never under the boot's lock, so it may send events.
    public func observer(_ title: String, _ handler: @escaping @Sendable (Event) async -> Void) {
        let observer = BootObserver(title: title, handler: handler)
        let node = BootNode(title: title, after: [], body: nil)
        state.withLock { $0.add(node, observer: observer, boot: self.title) }
    }

    /// Sends an application event to the observers: buffered until the boot ends, then
    /// forwarded in the order sent. Never blocks and never waits for an observer. After
    /// ``finish()`` the event is dropped.
    public func send(_ event: Event) {
        state.withLock { $0.send(event) }
    }

    /// Calls `body` once when the boot ends, with its outcome (what `run()` returns or throws),
    /// after the buffered events were handed to the observers. Registered after the end, it is
    /// called at once. For callers that do not await `run()` themselves.
    public func onCompletion(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        if let outcome = state.withLock({ $0.addCompletion(body) }) { body(outcome) }
    }

    /// A stream of the boot's progress (``BootEvent``): made before `run()`, it gets every event
    /// of the run and finishes after ``BootEvent/finished(boot:elapsed:failure:)``; made later,
    /// it is finished at once. Several streams may be made; each gets every event.
    public func progress() -> AsyncStream<BootEvent> {
        state.withLock { $0.subscribeToProgress() }
    }

    /// The boot's current phase.
    public var phase: BootPhase { state.withLock { $0.phase } }

    /// Checks the graph as `run()` would, without running or changing anything: for tools
    /// that check a start-up ahead of time.
    ///
    /// - Throws: the ``BootError`` `run()` would throw for this graph.
    public func validate() throws(BootError) {
        let nodes = state.withLock { $0.nodes }
        _ = try BootGraph(validating: nodes, boot: title)
    }

    /// Validates the graph, then runs every task, as parallel as the dependencies allow.
    ///
    /// - Throws: ``BootError`` if the graph is invalid or the boot already started (no task
    ///   runs); else the first error a task threw; else `CancellationError` if the awaiting
    ///   task was cancelled before every task had started.
    public func run() async throws {
        let (nodes, progress) = try state.withLock { try $0.beginBoot(boot: title) }
        let result: Result<Void, any Error>
        do {
            let graph = try BootGraph(validating: nodes, boot: title)
            progress.publish(.started(boot: title, tasks: nodes.map(\.info)))
            var scheduler = BootScheduler(graph: graph, progress: progress)
            try await scheduler.run()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        progress.finish(boot: title, failure: result.failure)
        let completions = state.withLock { $0.endBoot(result) }
        for completion in completions { completion(result) }
        try result.get()
    }

    /// Ends the boot's lifetime: observers get every event forwarded so far, then stop (this
    /// waits until they have handled them); events sent later are dropped. Events still
    /// buffered because the boot has not ended are dropped too: they were never due.
    public func finish() async {
        let deliveries = state.withLock { $0.finish() }
        for delivery in deliveries { await delivery.value }
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
