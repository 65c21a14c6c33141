/// Describes a job when it is added to a queue.
public struct JobInfo: Sendable, Hashable {
    /// Its identity.
    public let id: JobID
    /// The job's title.
    public let title: String
    /// The title of the queue it was added to.
    public let queue: String
    /// Its priority on that queue.
    public let priority: JobPriority
    /// The jobs it waits for (`after:`), in the order given.
    public let dependencies: [JobID]
    /// The most runs its retry policy allows, the first included.
    public let maxAttempts: Int

    /// Creates a description.
    public init(
        id: JobID, title: String, queue: String, priority: JobPriority, dependencies: [JobID], maxAttempts: Int = 1
    ) {
        self.id = id
        self.title = title
        self.queue = queue
        self.priority = priority
        self.dependencies = dependencies
        self.maxAttempts = maxAttempts
    }
}

/// One change on a ``JobQueue``. Every observer of ``JobQueue/events`` receives every event of
/// that queue, in the order the changes happened; a job's events always come as
/// `added`, then for each run `started` (then `progress`…) and, when it is retried,
/// `attemptFailed`, and last `finished`. A job that never runs goes from `added` to `finished`.
public enum JobEvent: Sendable {
    /// A job was added to the queue.
    case added(JobInfo)
    /// Run number `attempt` (from 1) of a job began.
    case started(JobID, attempt: Int)
    /// A running job reported progress (0...1), coalesced to one event per whole percent.
    case progress(JobID, Double)
    /// Run number `attempt` failed with `error` (its description); run `attempt + 1` of
    /// `maxAttempts` starts after `nextDelay`.
    case attemptFailed(JobID, attempt: Int, maxAttempts: Int, error: String, nextDelay: Duration)
    /// A job ended; `status` is final (``JobStatus/isFinished``).
    case finished(JobID, JobStatus)
    /// The queue was paused (`true`) or resumed (`false`).
    case paused(queue: String, Bool)

    /// The job the event is about; nil for queue events.
    public var jobID: JobID? {
        switch self {
        case .added(let info): info.id
        case .started(let id, _), .progress(let id, _), .attemptFailed(let id, _, _, _, _), .finished(let id, _): id
        case .paused: nil
        }
    }
}
