import TaskFlow

/// One job of an in-process queue as the queues view shows it: what its events said, with
/// times on the dashboard's clock.
package struct QueuedJobRow: Sendable, Hashable {
    /// How it was added: title, queue, priority, dependencies, most attempts.
    package let info: JobInfo
    /// Where it is in its life.
    package internal(set) var status = JobStatus.waiting
    /// The run under way or last run (from 1); 0 before its first start.
    package internal(set) var attempt = 0
    /// The last progress reported (0...1) by the run under way or last run.
    package internal(set) var progress: Double?
    /// When the next run starts, on the dashboard's clock, while it waits to retry.
    package internal(set) var nextAttemptAt: Duration?
    /// Why the last failed run failed.
    package internal(set) var lastError: String?
    /// When it ended, on the dashboard's clock.
    package internal(set) var endedAt: Duration?

    /// A job just added.
    package init(info: JobInfo) {
        self.info = info
    }

    /// True while it runs or waits for its next run.
    package var isActive: Bool {
        switch status {
        case .running, .retrying: true
        default: false
        }
    }

    /// True for a job that failed or was cancelled: `r` can run it again.
    package var canRetry: Bool {
        switch status {
        case .failed, .cancelled: true
        default: false
        }
    }

    /// "attempt 2/3" for a job that may retry: the run under way, or the next one while it
    /// waits to retry; nil for a job that runs once or has not started.
    package var attemptText: String? {
        let shown = if case .retrying(let next, _) = status { next } else { attempt }
        guard info.maxAttempts > 1, shown > 0 else { return nil }
        return "attempt \(shown)/\(info.maxAttempts)"
    }
}
