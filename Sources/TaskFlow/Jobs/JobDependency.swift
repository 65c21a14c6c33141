/// Something a queued job can be added after (``JobQueue/add(_:priority:after:)``): the handle
/// of a job already added to a queue, whatever its value type. Sealed: only the engine makes
/// the ``ScheduledJob`` a conformer must give, so every dependency stands for a job some queue
/// holds (a type of yours may conform by forwarding a handle's).
public protocol JobDependency: Sendable {
    /// The queued job this dependency stands for.
    var scheduledJob: ScheduledJob { get }
}

extension JobDependency {
    /// The job's identity, as in the queue's events.
    public var id: JobID { scheduledJob.record.id }
    /// The job's title.
    public var title: String { scheduledJob.record.title }
    /// Where the job is now: waiting, running, retrying (with the next attempt's time) or one
    /// of the final states.
    public var status: JobStatus { scheduledJob.record.status }

    /// Cancels the job. Waiting: it never runs, ends `cancelled` at once and its dependents fail.
    /// Running: its ``JobContext/isCancelled`` turns true and cancellable awaits in it throw; it
    /// ends `cancelled` if it stops by throwing `CancellationError`, else as its run ends. No
    /// further retry starts. Ended: nothing happens.
    public func cancel() { scheduledJob.record.cancel() }
}

/// A job added to a queue, whatever its value type: what a ``JobDependency`` stands for. It has
/// no public initializer, so only ``JobQueue/add(_:priority:after:)`` makes one.
public struct ScheduledJob: Sendable {
    let record: JobRecord
}
