import TaskFlow

/// A line of the queues view the cursor can be on: a queue's heading (`P` pauses it) or one
/// of its jobs (`c` cancels it, `r` retries it).
package enum QueueLine: Sendable, Hashable {
    /// The heading of the queue with this title.
    case queue(String)
    /// A job.
    case job(JobID)
}

extension QueueBoard {
    /// Every line of the view, in order: each queue's heading, then its jobs (``jobs(of:)``).
    package var lines: [QueueLine] {
        queues.flatMap { queue in
            [.queue(queue.description.title)] + jobs(of: queue.description.title).map { .job($0.info.id) }
        }
    }

    /// The title of the queue `line` belongs to.
    package func queueTitle(of line: QueueLine) -> String? {
        switch line {
        case .queue(let title): title
        case .job(let id): jobs[id]?.info.queue
        }
    }

    /// The queue titled `title`.
    package func queue(titled title: String) -> Queue? {
        queues.first { $0.description.title == title }
    }
}
