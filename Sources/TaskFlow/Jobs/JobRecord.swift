import Synchronization
import TaskFlowSupport

/// One job added to a queue: its lifecycle, its result, who awaits it and which jobs wait for it.
/// ``JobHandle`` is a view of it; the queue holds it until it ends.
///
/// Every change goes through one lock and the explicit ``JobStatus`` lifecycle. The job ends
/// exactly once, by whichever comes first of: the run ending, a cancel before the start, or a
/// failed dependency. Whoever ends it calls what follows (error handlers of a job that never
/// ran, the queue, awaiting callers through its ``Completion``, dependents) outside the lock.
///
/// It is not generic: the job's typed work sits behind ``QueueableJob`` and its value is kept as
/// `any Sendable` until ``JobHandle/value`` casts it back. Generic bookkeeping called from other
/// modules runs unspecialised, and looking up generic metadata on every lock cost several
/// microseconds per job.
final class JobRecord: Sendable, JobObserver {
    let id: JobID
    let title: String
    let priority: JobPriority
    let job: any QueueableJob
    let queue: JobQueue
    /// Where its run span goes: nil unless a tracer was in effect when it was added.
    private let trace: JobTrace?
    /// Its queue's metrics from the factory in effect when it was added: nil with the no-op one.
    private let metrics: JobMetrics?
    private let state: Protected<State>
    private let endedFlag = Atomic<Bool>(false)
    /// Its value or error, for its handle: set once the job ended and its queue let go of it.
    private let completion = Completion()

    private struct State {
        var status = JobStatus.waiting
        /// Dependencies that have not succeeded yet.
        var unmet: Int
        /// The task running the body, while it runs: a cancel cancels it.
        var task: Task<Void, Never>?
        /// A cancel arrived after the job was launched but before its task was stored.
        var cancelRequested = false
        /// Cancels that took `task` and have not called its `cancel()` yet: while there are any,
        /// the task is not handed to another job (``JobHandOff``).
        var cancelsInFlight = 0
        /// Jobs added after this one; told how it ended, then released.
        var dependents: [JobRecord] = []
        /// The last whole percent published, so that progress events are coalesced.
        var percent = -1
    }

    init(job: any QueueableJob, id: JobID, priority: JobPriority, queue: JobQueue, dependencies: Int) {
        self.id = id
        // Looked up in the task that adds the job, once: its run and its end use them.
        trace = .current()
        metrics = queue.metrics
        title = job.title
        self.priority = priority
        self.job = job
        self.queue = queue
        state = Protected(State(unmet: dependencies))
    }

    var status: JobStatus { state.withLock { $0.status } }

    /// True once the job ended. Set under the job's lock with its final status, so exact under
    /// that lock; readable without it, so the queue can skip ended jobs while it holds its own.
    var hasEnded: Bool { endedFlag.load(ordering: .acquiring) }

    // MARK: - Running

    /// Starts the body in a new task, unless the job already ended (cancelled after the queue
    /// picked it); returns whether it started.
    func launch() -> Bool {
        let claimed = state.withLock { state in
            guard !hasEnded else { return false }
            state.status = .running
            return true
        }
        guard claimed else { return false }
        // Created outside the lock, so the new task never finds it taken; a cancel that comes
        // in between is remembered and applied here.
        let task = queue.executor.map { executor in Task(executorPreference: executor) { await self.execute() } }
            // Without one, a plain task: a nil preference is still recorded on the task (an
            // allocation, and a look-up at each of its suspensions).
            ?? Task { await self.execute() }
        let cancelNow = state.withLock { state in
            if !hasEnded { state.task = task }
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
        return true
    }

    /// The body of a job's task: runs this job, then every job handed to the task, in a loop.
    /// Inlined into the task's closure: a frame less on every job's task.
    @inline(__always)
    private func execute() async {
        var record = self
        while let next = await record.runHere() {
            record = next
        }
    }

    /// Runs the body on the current task and ends the job; returns the job handed to this task
    /// to run next, already claimed, if any.
    private func runHere() async -> JobRecord? {
        let started = metrics == nil ? nil : ContinuousClock.now
        let result: ErasedOutcome
        do {
            result = .success(try await perform())
        } catch {
            result = .failure(error)
        }
        return ran(result, startedAt: started)
    }

    /// The body ended with `result`: ends the job; returns the job handed to this task to run
    /// next, already claimed, if any. Out of line: inlined into ``runHere()``, the job's end and
    /// hand-off took room in its async frame, and a job's frames overflowed a slab of its
    /// task's allocator (a heap allocation per job).
    @inline(never)
    private func ran(_ result: ErasedOutcome, startedAt started: ContinuousClock.Instant?) -> JobRecord? {
        if let started { metrics?.duration.record(since: started) }
        guard let handOff = end(with: result, ran: true)?.handOff, let next = handOff.job else { return nil }
        if !Task.isCancelled, next.claim(on: handOff.task) { return next }
        // The task was cancelled meanwhile, or the job was: start it (or its replacement) apart.
        next.queue.launch(InlineFirstList(next))
        return nil
    }

    /// Runs the job's body (its attempts), in its run span when traced. Always inlined into
    /// ``runHere()``: a frame level less on every job's task.
    @inline(__always)
    private func perform() async throws -> any Sendable {
        guard let trace else { return try await job.performErased(observer: self) }
        return try await perform(tracedBy: trace)
    }

    /// Runs the job's body in its run span. Not inlined: the span's frame, inlined into
    /// ``perform()``, was part of every job task's frames (a task allocator slab holds 984
    /// bytes; a frame that does not fit costs a heap allocation).
    @inline(never)
    private func perform(tracedBy trace: JobTrace) async throws -> any Sendable {
        let span = trace.runSpan(title: title, id: id, queue: queue.title)
        return try await SpanScope.run(in: span) { try await job.performErased(observer: self) }
    }

    /// Makes `task`, which just ran another job of a compatible queue, this job's task, unless
    /// the job already ended (cancelled after it was picked).
    func claim(on task: Task<Void, Never>) -> Bool {
        state.withLock { state in
            guard !hasEnded else { return false }
            state.status = .running
            state.task = task
            return true
        }
    }

    func attemptStarted(_ attempt: Int) {
        // The first attempt found the job `running` and progress unreported since `launch`.
        // A final status never changes: its dependents learn their outcome from it.
        if attempt > 1 {
            state.withLock { state in
                guard !hasEnded else { return }
                state.status = .running
                state.percent = -1
            }
        }
        queue.hub.emit(.started(id, attempt: attempt))
    }

    var clock: any TimingClock { queue.clock }

    func retrying(_ notice: RetryNotice, until deadline: ContinuousClock.Instant) {
        state.withLock { state in
            guard !hasEnded else { return }
            state.status = .retrying(attempt: notice.nextAttempt, at: deadline)
        }
        queue.hub.emit(
            .attemptFailed(
                id, attempt: notice.failedAttempt, maxAttempts: notice.maxAttempts,
                error: String(describing: notice.error), nextDelay: notice.delay),
            about: title)
    }

    func progressed(_ fraction: Double) {
        guard queue.hub.isObserved else { return }
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        // The epsilon keeps 0.29 in the 29 % bucket despite binary rounding (0.29 * 100 = 28.99…).
        let percent = Int((clamped * 100 + 1e-9).rounded(.down))
        let isNew = state.withLock { state in
            defer { state.percent = percent }
            return percent != state.percent
        }
        if isNew { queue.hub.emit(.progress(id, clamped)) }
    }

    // MARK: - Ending

    /// Cancels the job: a waiting job ends at once without running, a running one sees
    /// `isCancelled`.
    func cancel() {
        while true {
            let action: CancelAction = state.withLock { state in
                if hasEnded { return .none }
                if let task = state.task {
                    state.cancelsInFlight += 1
                    return .cancelTask(task)
                }
                if state.status == .running {
                    state.cancelRequested = true
                    return .none
                }
                return .endUnstarted
            }
            switch action {
            case .none: return
            case .cancelTask(let task):
                task.cancel()
                state.withLock { $0.cancelsInFlight -= 1 }
                return
            case .endUnstarted:
                if let ended = end(with: .failure(CancellationError()), ran: false) {
                    DependencyOutcome.deliver(ended.notices)
                    return
                }
                // Launched or handed a task since the look above: cancel it as a running job.
            }
        }
    }

    private enum CancelAction { case none, cancelTask(Task<Void, Never>), endUnstarted }

    private struct Ended {
        let dependents: [JobRecord]
        /// The task that ran the job, if it may be handed to the next one.
        let reusableTask: Task<Void, Never>?
    }

    /// Ends the job with `result` if nobody did yet, then tells everyone who needs to know; nil
    /// if the job had ended already, or if it was to end without running (`ran` false) but has
    /// started meanwhile. A job that never ran returns the notices for its dependents, for the
    /// caller's work list; a run that ended delivers them itself, and returns the offer of its
    /// task with the job that took it.
    ///
    /// Why the start matters: a cancel decides to end a waiting job under the lock, but ends it
    /// here, under the lock again. A launch or a hand-off in between starts the job; ending it
    /// then as never run would report it cancelled while it runs, and its run's own end, finding
    /// the job ended, would never give its slot back (a stress test saw the queue stop).
    private func end(
        with result: ErasedOutcome, ran: Bool
    ) -> (notices: [DependencyNotice], handOff: JobHandOff?)? {
        // Once: a failure's describes its error.
        let status = JobStatus(endedWith: result.error)
        let ended: Ended? = state.withLock { state in
            guard !hasEnded, ran || state.status == .waiting else { return nil }
            state.status = status
            endedFlag.store(true, ordering: .releasing)
            defer {
                state.task = nil
                state.dependents = []
            }
            return Ended(
                dependents: state.dependents,
                reusableTask: ran && state.cancelsInFlight == 0 ? state.task : nil)
        }
        guard let ended else { return nil }
        metrics?.ended(status)
        if !ran, let error = result.error { job.report(error) }
        var handOff = ended.reusableTask.map { JobHandOff(task: $0, queue: queue) }
        // Announced before the slot is freed, so observers never see the next job start first.
        queue.hub.emit(.finished(id, status), about: title)
        queue.jobEnded(self, heldSlot: ran, handOff: &handOff)
        completion.end(result)
        let outcome = DependencyOutcome(title: title, endedAs: status)
        let notices = ended.dependents.isEmpty ? [] : Self.notices(for: ended.dependents, outcome)
        guard ran else { return (notices, nil) }
        DependencyOutcome.deliver(notices, handOff: &handOff)
        return ([], handOff)
    }

    // MARK: - Dependencies

    /// What `dependents` are told of a job that ended with `outcome`.
    private static func notices(for dependents: [JobRecord], _ outcome: DependencyOutcome) -> [DependencyNotice] {
        dependents.map { DependencyNotice(dependent: $0, outcome: outcome) }
    }

    /// Registers `dependent` to hear how this job ends; if it already ended, returns that
    /// instead (and registers nothing).
    func addDependent(_ dependent: JobRecord) -> DependencyOutcome? {
        state.withLock { state in
            guard hasEnded else {
                state.dependents.append(dependent)
                return nil
            }
            return DependencyOutcome(title: title, endedAs: state.status)
        }
    }

    /// One of this job's dependencies ended. If that ends this job too (the dependency failed),
    /// returns the notices for this job's own dependents, for ``DependencyOutcome/deliver(_:handOff:)``;
    /// if it makes the job ready, `handOff` may take it.
    func dependencyEnded(_ outcome: DependencyOutcome, handOff: inout JobHandOff?) -> [DependencyNotice] {
        switch outcome {
        case .succeeded:
            let isReady = state.withLock { state in
                guard !hasEnded else { return false }
                state.unmet -= 1
                return state.unmet == 0
            }
            if isReady { queue.enqueue(self, wasBlocked: true, handOff: &handOff) }
            return []
        case .failed(let dependency, let cancelled):
            let error = JobError.dependencyFailed(job: title, dependency: dependency, cancelled: cancelled)
            return end(with: .failure(error), ran: false)?.notices ?? []
        }
    }

    // MARK: - Awaiting

    /// The job's value once it ended, or its error.
    var value: any Sendable {
        get async throws { try await completion.outcome.get() }
    }
}
