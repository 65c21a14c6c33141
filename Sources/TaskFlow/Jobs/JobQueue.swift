import Logging
import Synchronization
import TaskFlowSupport

/// Runs jobs later, at most ``maxConcurrent`` at once, by priority, after their dependencies:
/// Overdrive's `TaskQueue`, on Swift concurrency.
///
/// ```swift
/// let queue = JobQueue(title: "Uploads", maxConcurrent: 3)
/// let a = queue.add(fetch)                               // JobHandle<Int>
/// let b = queue.add(fetch, priority: .high, after: [a])  // starts once `a` succeeded
/// let value = try await b.value
/// ```
///
/// - **Order.** Waiting jobs whose dependencies are met start by ``JobPriority`` (high first),
///   and in the order they were added within one priority. A job holds its slot through its
///   retries and their backoff.
/// - **Dependencies.** A job added `after:` other jobs (of any queue) starts only once all of
///   them succeeded. If one fails or is cancelled, the job never runs and throws
///   ``JobError/dependencyFailed(job:dependency:cancelled:)`` naming it, and so on down the
///   line. Bookkeeping is linear in jobs plus dependencies and recurses nowhere.
/// - **Pause.** ``pause()`` stops starts; running jobs go on. ``resume()`` starts again.
/// - **Cancel.** ``JobDependency/cancel()`` for one job, ``cancelAll()`` for every job added so far.
/// - **Events.** ``events`` publishes every change (``JobEvent``).
/// - **Lifetime.** A queue lives while it is referenced, by you or by a handle of one of its
///   jobs, so jobs added to it always end even when the queue itself was dropped (unless it
///   was paused: then its waiting jobs wait until ``resume()``).
///
/// Jobs run on the cooperative pool, except on ``main`` (the main actor) and on
/// ``blocking(title:threads:logger:)`` queues (their own threads).
public final class JobQueue: Sendable {
    /// Shown in events.
    public let title: String
    /// The most jobs that run at once.
    public let maxConcurrent: Int
    /// Where job bodies run: nil for the cooperative pool.
    let executor: (any TaskExecutor)?
    /// What the jobs' backoffs wait on, and what ``JobStatus/retrying(attempt:at:)`` is read from.
    let clock: any TimingClock
    /// Released with the queue: a blocking queue's threads end then.
    private let threads: ThreadPoolExecutor?
    /// The queue's events, to its observers and its logger.
    let hub: JobEventHub
    private let state: Protected<QueueState>
    /// How many jobs were ever added: a watcher that counts the jobs it saw end knows when all did.
    private let added = Atomic<Int>(0)
    /// `taskflow.jobs` and `taskflow.job.duration` for this queue (``JobMetrics``).
    private let metricsCache = MetricsCache<String, JobMetrics> { JobMetrics(queue: $0, factory: $1) }

    /// This queue's metrics from the factory in effect; nil with the no-op one.
    var metrics: JobMetrics? { metricsCache.metrics(for: title) }

    /// A queue whose jobs run on the cooperative pool, at most `maxConcurrent` (≥ 1) at once.
    /// `logger` hears its jobs' retries and cancels (`info`), failures (`warning`: whoever awaits
    /// the handle gets the error) and the rest (`debug`), each with `taskflow.queue`, the job's id
    /// and title. The default logs nothing and costs nothing.
    public convenience init(
        title: String, maxConcurrent: Int = 1,
        logger: Logger = Logger(label: "taskflow.jobs", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(title: title, maxConcurrent: maxConcurrent, executor: nil, threads: nil, logger: logger)
    }

    /// A queue on the cooperative pool whose jobs' backoffs wait on `clock`: for tests.
    package convenience init(title: String, maxConcurrent: Int = 1, clock: any TimingClock) {
        self.init(title: title, maxConcurrent: maxConcurrent, executor: nil, threads: nil, clock: clock)
    }

    private init(
        title: String, maxConcurrent: Int, executor: (any TaskExecutor)?, threads: ThreadPoolExecutor?,
        clock: any TimingClock = ContinuousClock(), logger: Logger = .noOp
    ) {
        precondition(maxConcurrent >= 1, "JobQueue: maxConcurrent must be at least 1")
        self.title = title
        self.maxConcurrent = maxConcurrent
        self.executor = executor
        self.threads = threads
        self.clock = clock
        hub = JobEventHub(queue: title, logger: logger)
        state = Protected(QueueState(maxConcurrent: maxConcurrent))
    }

    deinit {
        threads?.shutdown()
    }

    /// The shared queue for background work: up to 16 jobs at once on the cooperative pool,
    /// enough to overlap jobs that await I/O while priorities still decide what starts first.
    public static let background = JobQueue(title: "Background", maxConcurrent: 16)

    /// The foreground queue: one job at a time, each started on the main thread as the main
    /// actor (`MainActor.assumeIsolated` works in its body). The body's non-isolated code stays
    /// on the main thread across awaits, so, like any main-actor work, it must not block.
    /// Requires a main thread that drains the main queue (the dashboard's run loop, or an
    /// `async` main).
    public static let main = JobQueue(
        title: "Main", maxConcurrent: 1, executor: MainQueueExecutor.shared, threads: nil)

    /// A queue with `threads` OS threads of its own, running up to `threads` jobs at once: for
    /// jobs that block (synchronous file I/O, `usleep`, C libraries) and would otherwise stall
    /// the cooperative pool, which has only as many threads as cores. A job's non-isolated code
    /// runs on these threads from start to end, across its awaits. The threads end when the
    /// queue is released. `logger` as for ``init(title:maxConcurrent:logger:)``.
    public static func blocking(title: String, threads: Int,
        logger: Logger = Logger(label: "taskflow.jobs", factory: { _ in SwiftLogNoOpLogHandler() })
    ) -> JobQueue {
        precondition(threads >= 1, "JobQueue.blocking: threads must be at least 1")
        let pool = ThreadPoolExecutor(threads: threads)
        return JobQueue(title: title, maxConcurrent: threads, executor: pool, threads: pool, logger: logger)
    }

    /// Every event of this queue from now on (``JobEvent``), until the consumer stops
    /// iterating. Observing costs the jobs two locks per event and observer (and waking an
    /// observer that waited); not observing costs nothing.
    public var events: AsyncStream<JobEvent> { hub.subscribe() }

    /// True while paused.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    /// Schedules `job` and returns its handle. It starts when its dependencies (`after`, handles
    /// from any queue) all succeeded, a slot is free and no waiting job of a higher priority, or
    /// of the same priority added earlier, is ready.
    @discardableResult
    public func add<Value>(
        _ job: Job<Value>, priority: JobPriority = .normal, after dependencies: [any JobDependency] = []
    ) -> JobHandle<Value> {
        let scheduled = dependencies.map(\.scheduledJob.record)
        let record = JobRecord(job: job, id: .next(), priority: priority, queue: self, dependencies: scheduled.count)
        schedule(record, after: scheduled)
        return JobHandle(record: record)
    }

    /// The untyped part of `add`, compiled once rather than per value type.
    private func schedule(_ record: JobRecord, after scheduled: [JobRecord]) {
        added.add(1, ordering: .relaxed)
        hub.emit(.added(JobInfo(id: record.id, title: record.title, queue: title, priority: record.priority,
                                dependencies: scheduled.map(\.id), maxAttempts: record.job.maxAttempts)))
        if scheduled.isEmpty {
            enqueue(record, wasBlocked: false)
        } else {
            state.withLock { $0.block(record) }
            // Registered before any dependency can report, so no outcome is missed; those that
            // already ended report here.
            let ended = scheduled.compactMap { dependency in
                dependency.addDependent(record).map { DependencyNotice(dependent: record, outcome: $0) }
            }
            DependencyOutcome.deliver(ended)
        }
    }

    /// Stops starting jobs; running jobs go on. Jobs can still be added.
    public func pause() {
        let changed = state.withLock { state in
            defer { state.isPaused = true }
            return !state.isPaused
        }
        if changed { hub.emit(.paused(queue: title, true)) }
    }

    /// Starts jobs again, as many as slots allow.
    public func resume() {
        let (changed, startable) = state.withLock { state in
            let changed = state.isPaused
            state.isPaused = false
            return (changed, state.takeStartable())
        }
        if changed { hub.emit(.paused(queue: title, false)) }
        launch(startable)
    }

    /// Cancels every job added so far and not ended (``JobDependency/cancel()`` each), latest first,
    /// so that jobs waiting for others end `cancelled` rather than failed by their dependency.
    public func cancelAll() {
        let jobs = state.withLock { $0.unfinished }
        for job in jobs.sorted(by: { $0.id > $1.id }) { job.cancel() }
    }

    /// Cancels job `id` of this queue, as its handle's ``JobDependency/cancel()`` would: what a
    /// watcher that never held the handle does. Returns false when the queue has no such job
    /// that has not ended.
    @discardableResult
    public func cancel(_ id: JobID) -> Bool {
        guard let job = state.withLock({ $0.unfinished.first { $0.id == id } }) else { return false }
        job.cancel()
        return true
    }

    /// True for a ``blocking(title:threads:logger:)`` queue, whose jobs run on threads of its own.
    package var isBlocking: Bool { threads != nil }

    /// How many jobs were added to this queue so far.
    package var jobsAdded: Int { added.load(ordering: .relaxed) }

    /// What a watcher subscribing to ``events`` now missed of the jobs still unfinished: each
    /// one's `added` event (its dependencies left out: only their count is kept) and, for those
    /// running, `started` (as attempt 1); with how many jobs had ended by then, whose events it
    /// will never see. Counted under the queue's lock with the jobs it lists; a job added at
    /// this very moment may count as ended without being listed, never the reverse, so a
    /// watcher counting ends never waits for one it cannot hear.
    package func missedEvents() -> (events: [JobEvent], ended: Int) {
        let (records, ended) = state.withLock { state in
            let unfinished = state.unfinished
            return (unfinished.sorted { $0.id < $1.id }, jobsAdded - unfinished.count)
        }
        // Each record's status is read outside the queue's lock: a record takes its own lock.
        let events = records.flatMap { record -> [JobEvent] in
            let info = JobInfo(
                id: record.id, title: record.title, queue: title, priority: record.priority, dependencies: [],
                maxAttempts: record.job.maxAttempts)
            return record.status == .running ? [.added(info), .started(record.id, attempt: 1)] : [.added(info)]
        }
        return (events, ended)
    }

    // MARK: - Scheduling, for the jobs' records

    /// A job's dependencies are met, or it has none: queue it and start what may start (the
    /// first on `handOff`'s task, if offered).
    func enqueue(_ job: JobRecord, wasBlocked: Bool, handOff: inout JobHandOff?) {
        let startable = state.withLock { state in
            state.enqueue(job, wasBlocked: wasBlocked)
            return state.takeStartable()
        }
        launch(startable, handOff: &handOff)
    }

    /// ``enqueue(_:wasBlocked:handOff:)`` with no task to offer.
    func enqueue(_ job: JobRecord, wasBlocked: Bool) {
        var noHandOff: JobHandOff?
        enqueue(job, wasBlocked: wasBlocked, handOff: &noHandOff)
    }

    /// A job ended: free its slot if it held one, and start what may start (the first on
    /// `handOff`'s task, if offered).
    func jobEnded(_ job: JobRecord, heldSlot: Bool, handOff: inout JobHandOff?) {
        let startable = state.withLock { state in
            state.ended(job, heldSlot: heldSlot)
            return heldSlot ? state.takeStartable() : InlineFirstList()
        }
        launch(startable, handOff: &handOff)
    }

    /// Launches picked jobs outside the lock, each in a task of its own unless `handOff` takes
    /// it. A job cancelled between being picked and launched gives its slot back, and the next
    /// jobs are picked in its place, in a loop.
    func launch(_ picked: InlineFirstList<JobRecord>, handOff: inout JobHandOff?) {
        var batch = picked
        while !batch.isEmpty {
            let refused = batch.filter { !(handOff?.take($0) ?? false) && !$0.launch() }
            guard !refused.isEmpty else { return }
            batch = state.withLock { state in
                state.releaseSlots(of: refused)
                return state.takeStartable()
            }
        }
    }

    /// ``launch(_:handOff:)`` with no task to offer.
    func launch(_ picked: InlineFirstList<JobRecord>) {
        var noHandOff: JobHandOff?
        launch(picked, handOff: &noHandOff)
    }
}
