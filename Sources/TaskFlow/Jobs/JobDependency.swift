/// Something a queued job can be added after (``JobQueue/add(_:priority:after:)``): the handle
/// of a job already added to a queue, whatever its value type.
public protocol JobDependency: Sendable {
    /// The job's identity.
    var id: JobID { get }
    /// The job's title.
    var title: String { get }
    /// Where the job is in its life.
    var status: JobStatus { get }
    /// Cancels the job; see ``JobHandle/cancel()``.
    func cancel()
}

/// Gives the queue the job behind a dependency. Only ``JobHandle`` conforms: a dependency is
/// always a job some queue holds.
protocol ScheduledJobHandle {
    var record: JobRecord { get }
}
