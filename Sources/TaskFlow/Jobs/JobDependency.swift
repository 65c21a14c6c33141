/// Something a queued job can be added after (``JobQueue/add(_:priority:after:)``): the handle
/// of a job already added to a queue, whatever its value type. Sealed: only the engine makes
/// the ``ScheduledJob`` a conformer must give, so every dependency stands for a job some queue
/// holds (a type of yours may conform by forwarding a handle's).
public protocol JobDependency: Sendable {
    /// The queued job this dependency stands for.
    var scheduledJob: ScheduledJob { get }
}

extension JobDependency {
    /// The job's identity.
    public var id: JobID { scheduledJob.record.id }
    /// The job's title.
    public var title: String { scheduledJob.record.title }
    /// Where the job is in its life.
    public var status: JobStatus { scheduledJob.record.status }
    /// Cancels the job; see ``JobHandle/cancel()``.
    public func cancel() { scheduledJob.record.cancel() }
}

/// A job added to a queue, whatever its value type: what a ``JobDependency`` stands for. It has
/// no public initializer, so only ``JobQueue/add(_:priority:after:)`` makes one.
public struct ScheduledJob: Sendable {
    let record: JobRecord
}
