/// What a job's body works with during one run (one attempt).
///
/// ```swift
/// let fetch = Job(title: "Fetch count") { job in
///     job.progress(0.5)
///     if job.isCancelled { throw CancellationError() }
///     return try await api.count(try: job.attempt)
/// }
/// ```
public struct JobContext: Sendable {
    /// Which run this is: 1 for the first, 2 for the first retry, and so on.
    public let attempt: Int
    /// Where progress and attempts are reported: the job's queue, or nothing for a plain `run()`.
    let observer: (any JobObserver)?

    init(attempt: Int, observer: (any JobObserver)?) {
        self.attempt = attempt
        self.observer = observer
    }

    /// The context of a plain ``Job/run()``'s only attempt: nobody observes it.
    @usableFromInline static var plainRun: JobContext { JobContext(attempt: 1, observer: nil) }

    /// True once the job was cancelled (``JobDependency/cancel()``, ``JobQueue/cancelAll()``, a
    /// failing sibling in a ``Job/group(title:_:)``, or the task running ``Job/run()``): the body
    /// may stop early by throwing `CancellationError`, which never retries. This is Swift task
    /// cancellation, so `Task.sleep` and other cancellable awaits in the body throw too.
    public var isCancelled: Bool { Task.isCancelled }

    /// Reports progress (0...1, clamped). On a queue it becomes a ``JobEvent/progress(_:_:)``
    /// event, coalesced to one per whole percent; in a plain ``Job/run()`` it goes nowhere, so it
    /// costs nothing there.
    public func progress(_ fraction: Double) {
        observer?.progressed(fraction)
    }
}

/// Receives what a running job reports: its queue's record of it. Called on the job's task.
///
/// A class: a job's context and attempts pass an optional one along, and an optional of an
/// existential that may be a value is copied through the runtime's generic witnesses; an
/// optional reference is a pointer.
protocol JobObserver: AnyObject, Sendable {
    /// What the job's backoffs wait on: its queue's clock.
    var clock: any TimingClock { get }
    /// Run number `attempt` (from 1) is starting.
    func attemptStarted(_ attempt: Int)
    /// A run failed and the job will run again at `deadline`, `notice.delay` from now.
    func retrying(_ notice: RetryNotice, until deadline: ContinuousClock.Instant)
    /// The body reported progress.
    func progressed(_ fraction: Double)
}
