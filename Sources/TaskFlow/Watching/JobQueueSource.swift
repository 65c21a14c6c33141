/// In-process job queues the dashboard shows in its queues view (`Tab`) and steers: a
/// scenario's `[[queue]]` tables, or a program's own ``JobQueue``s.
public protocol JobQueueSource: Sendable {
    /// The queues, in the order shown, as they are now.
    var queues: [QueueDescription] { get }
    /// Every event of every queue from now on, until the consumer stops iterating. Events of
    /// one queue come in order; those of different queues may interleave either way.
    func events() -> AsyncStream<JobEvent>
    /// Cancels a job: waiting, it never runs; running, it is asked to stop.
    func cancel(_ id: JobID)
    /// Pauses (no job starts) or resumes the queue titled `queue`.
    func setPaused(_ paused: Bool, queue: String)
    /// How many jobs were added to the queues so far, retries included: a headless run ends only
    /// once the dashboard heard of that many ending.
    var jobsAdded: Int { get }
    /// Runs a failed or cancelled job again now (and the jobs it made fail, if the source
    /// knows them); returns the new runs' ids, or throws why not, in one line.
    func retry(_ id: JobID) throws -> [JobID]
}

/// A queue as the queues view shows it.
public struct QueueDescription: Sendable, Hashable {
    /// The queue's title, as in its events.
    public let title: String
    /// How many jobs it runs at once.
    public let maxConcurrent: Int
    /// True for a blocking-work queue, whose jobs run on threads of its own.
    public let isBlocking: Bool
    /// Whether it is paused now.
    public let isPaused: Bool

    /// Describes a queue.
    public init(title: String, maxConcurrent: Int, isBlocking: Bool = false, isPaused: Bool = false) {
        self.title = title
        self.maxConcurrent = maxConcurrent
        self.isBlocking = isBlocking
        self.isPaused = isPaused
    }
}
