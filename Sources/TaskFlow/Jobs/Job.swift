/// A reusable, typed description of asynchronous work: Sundell's Task and Overdrive's `Task<T>`.
///
/// A job is a value. Building one runs nothing; ``run()`` runs the body here and now, with the
/// job's retries, and running it twice runs the body twice. It needs no manager and takes no
/// lock; to run it later, with others, under a concurrency limit, add it to a ``JobQueue``.
///
/// ```swift
/// let fetch = Job(title: "Fetch count") { job in try await api.count() }
///     .retry(3)                            // up to 3 more runs after a failure
///     .onValue { count in print(count) }   // once per run, with the final value
///     .onError { error in print(error) }   // once per run, with the final error
/// let n = try await fetch.run()
/// ```
///
/// Semantics of one run:
/// - The body runs with attempt 1; if it throws an error the ``retryPolicy`` retries, it runs
///   again after the policy's delay, up to ``RetryPolicy/maxAttempts`` runs in all.
///   `CancellationError` never retries.
/// - Then every ``onValue(_:)`` handler gets the final value, or every ``onError(_:)`` handler
///   gets the final error, exactly once and in the order they were attached; `run()` returns
///   or rethrows after they ran. Failed attempts that were retried call no handler.
public struct Job<Value: Sendable>: Sendable {
    /// Everything a job is, in one immutable object: copying a job (into a closure, a task, a
    /// queue) then costs one reference count, not one per field.
    @usableFromInline let definition: JobDefinition<Value>

    /// Shown in events and in errors that name the job (``JobError``).
    public var title: String { definition.title }
    /// When the body runs again after a failure. ``RetryPolicy/never`` unless ``retry(_:)-(Int)``
    /// or ``retry(_:)-(RetryPolicy)`` said otherwise.
    public var retryPolicy: RetryPolicy { definition.retryPolicy }

    /// A job that runs `body`. `body` gets a ``JobContext`` (progress, cancellation, attempt).
    public init(title: String, _ body: @escaping @Sendable (JobContext) async throws -> Value) {
        definition = JobDefinition(
            title: title, retryPolicy: .never, body: body, valueHandlers: [], errorHandlers: [])
    }

    private init(_ definition: JobDefinition<Value>) {
        self.definition = definition
    }

    /// The same job, run up to `times` more times after a failure (Overdrive's `retry(n)`):
    /// the current policy's backoff and conditions with `maxAttempts = times + 1`.
    public func retry(_ times: Int) -> Job {
        precondition(times >= 0, "Job.retry: the number of retries cannot be negative")
        return retry(retryPolicy.withMaxAttempts(times + 1))
    }

    /// The same job, retried by `policy` (which replaces the current one).
    public func retry(_ policy: RetryPolicy) -> Job {
        Job(definition.with(retryPolicy: policy))
    }

    /// The same job, also calling `handler` with the final value of each successful run. Handlers
    /// add up: all of them run, in the order they were attached.
    public func onValue(_ handler: @escaping @Sendable (Value) -> Void) -> Job {
        Job(definition.with(valueHandlers: definition.valueHandlers + [handler]))
    }

    /// The same job, also calling `handler` with the final error of each failed run (after the
    /// last retry), including `CancellationError` and, on a queue, a job that never ran because
    /// it was cancelled or a dependency failed. Handlers add up, in the order attached.
    public func onError(_ handler: @escaping @Sendable (any Error) -> Void) -> Job {
        Job(definition.with(errorHandlers: definition.errorHandlers + [handler]))
    }

    /// Runs the job here and now, in the calling task (no task is spawned), with its retries;
    /// returns the final value or throws the final error, after the handlers ran.
    @inlinable
    public func run() async throws -> Value {
        // Inlinable so that a job without retries or handlers costs its caller one closure
        // call, specialised for `Value`, rather than a trip through unspecialised generic code.
        if definition.isPlain { return try await definition.body(.plainRun) }
        return try await performUnobserved()
    }

    /// A run with retries or handlers that nobody observes.
    @usableFromInline func performUnobserved() async throws -> Value {
        try await perform(observer: nil, clock: ContinuousClock())
    }

    /// ``run()`` with its backoffs timed by `clock`: for tests that move time themselves.
    package func run(on clock: any TimingClock) async throws -> Value {
        try await perform(observer: nil, clock: clock)
    }

    /// One run, reporting attempts and progress to `observer` (a queue's record of the job) and
    /// waiting out backoffs on `clock`.
    func perform(observer: (any JobObserver)?, clock: any TimingClock) async throws -> Value {
        let value: Value
        do {
            // A job that is never retried runs its attempt in this frame. Through the retry
            // policy, the policy's frame and the attempt's closure were two frames more on every
            // queued job's task, and its frames overflowed a slab of the task's allocator.
            if retryPolicy.maxAttempts <= 1 {
                value = try await attempt(1, observer: observer)
            } else {
                value = try await performRetrying(observer: observer, clock: clock)
            }
        } catch {
            report(error)
            throw error
        }
        for handler in definition.valueHandlers { handler(value) }
        return value
    }

    /// Attempt `number`, announced to `observer`.
    @inline(__always)
    func attempt(_ number: Int, observer: (any JobObserver)?) async throws -> Value {
        observer?.attemptStarted(number)
        return try await definition.body(JobContext(attempt: number, observer: observer))
    }

    /// The attempts under a policy that retries. Out of line: its closures' contexts, inlined
    /// into ``perform(observer:clock:)``, made every job's frame larger, retried or not.
    @inline(never)
    private func performRetrying(observer: (any JobObserver)?, clock: any TimingClock) async throws -> Value {
        try await retryPolicy.run(on: clock, willRetry: { observer?.retrying($0, until: $1) }) { number in
            try await attempt(number, observer: observer)
        }
    }

    /// Calls the error handlers: the end of a run that failed, or of one that never started.
    func report(_ error: any Error) {
        for handler in definition.errorHandlers { handler(error) }
    }
}
