import TaskFlow

/// One job queue event as a flat JSON object, for `--json` beside the flows' ``EventRecord``s:
/// `event` names it (`jobAdded`, `jobStarted`, `jobProgress`, `jobAttemptFailed`,
/// `jobFinished`, `queuePaused`); absent fields are left out.
package struct JobEventRecord: Codable, Sendable, Hashable {
    /// Seconds since the dashboard started.
    package var time: Double
    /// The event's name.
    package var event: String
    /// The queue's title.
    package var queue: String?
    /// The job's number.
    package var job: UInt64?
    /// The job's title.
    package var title: String?
    /// `low`, `normal` or `high` (jobAdded).
    package var priority: String?
    /// The numbers of the jobs it waits for (jobAdded).
    package var after: [UInt64]?
    /// The run's number, from 1 (jobStarted, jobAttemptFailed).
    package var attempt: Int?
    /// The most runs (jobAdded, jobAttemptFailed).
    package var maxAttempts: Int?
    /// Seconds until the next run (jobAttemptFailed).
    package var delay: Double?
    /// 0...1 (jobProgress).
    package var progress: Double?
    /// `succeeded`, `failed` or `cancelled` (jobFinished).
    package var status: String?
    /// An error's description (jobAttemptFailed, a failed jobFinished).
    package var message: String?
    /// Whether the queue is paused now (queuePaused).
    package var paused: Bool?

    /// The record of `event` at `time`; `row` is what the board knows of its job.
    package init(_ event: JobEvent, at time: Duration, row: QueuedJobRow?) {
        self.time = time.recordSeconds
        job = event.jobID?.rawValue
        title = row?.info.title
        queue = row?.info.queue
        switch event {
        case .added(let info):
            self.event = "jobAdded"
            (priority, after, maxAttempts) = (info.priority.description, info.dependencies.map(\.rawValue), info.maxAttempts)
        case .started(_, let attempt):
            self.event = "jobStarted"
            self.attempt = attempt
        case .progress(_, let fraction):
            self.event = "jobProgress"
            progress = fraction
        case .attemptFailed(_, let attempt, let maxAttempts, let error, let delay):
            self.event = "jobAttemptFailed"
            (self.attempt, self.maxAttempts, message, self.delay) = (attempt, maxAttempts, error, delay.seconds)
        case .finished(_, let status):
            self.event = "jobFinished"
            self.status = row?.status.name
            if case .failed(let text) = status { message = text }
        case .paused(let title, let paused):
            self.event = "queuePaused"
            (queue, self.paused) = (title, paused)
        }
    }
}
