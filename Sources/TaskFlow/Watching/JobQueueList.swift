/// A program's own ``JobQueue``s as one ``JobQueueSource``: what `Dashboard(…queues:…)` and a
/// console's `queues:` show and steer.
package struct JobQueueList: JobQueueSource {
    /// The queues, in the order shown.
    package let list: [JobQueue]

    /// The queues of `list`, in that order.
    package init(_ list: [JobQueue]) { self.list = list }

    package var queues: [QueueDescription] {
        list.map { queue in
            QueueDescription(
                title: queue.title, maxConcurrent: queue.maxConcurrent, isBlocking: queue.isBlocking,
                isPaused: queue.isPaused)
        }
    }

    package func events() -> AsyncStream<JobEvent> {
        // Subscribed here, before the stream is returned, so that no event is missed.
        let streams = list.map(\.events)
        return AsyncStream { continuation in
            let relay = Task {
                await withDiscardingTaskGroup { group in
                    for stream in streams {
                        group.addTask { for await event in stream { continuation.yield(event) } }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    package var jobsAdded: Int { list.reduce(0) { $0 + $1.jobsAdded } }

    package func cancel(_ id: JobID) {
        for queue in list where queue.cancel(id) { return }
    }

    package func setPaused(_ paused: Bool, queue title: String) {
        for queue in list where queue.title == title {
            if paused { queue.pause() } else { queue.resume() }
        }
    }

    /// Refused: a job's work is released once it ends, so only the program that added it can add
    /// it again.
    package func retry(_ id: JobID) throws -> [JobID] {
        throw RetryRefusal(job: id)
    }

    /// Why a program's queued job cannot be retried from outside.
    package struct RetryRefusal: Error, CustomStringConvertible {
        /// The job asked for.
        let job: JobID
        package var description: String { "job \(job) is the program's to add again: its work ended with it" }
    }
}
