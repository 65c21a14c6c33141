import TaskFlowSupport

/// A program's own ``JobQueue``s as one ``JobQueueSource``: what `Dashboard(…queues:…)` and a
/// console's `queues:` show and steer. The queues may have run jobs before they are watched:
/// ``jobsAdded`` counts only the jobs a watcher can still hear ending.
package final class JobQueueList: JobQueueSource {
    /// The queues, in the order shown.
    package let list: [JobQueue]
    /// How many of the queues' jobs had ended when ``events()`` was first called: their
    /// `finished` events went out before anyone listened.
    private let endedBeforeWatching = Protected<Int?>(nil)

    /// The queues of `list`, in that order.
    package init(_ list: [JobQueue]) { self.list = list }

    package var queues: [QueueDescription] {
        list.map { queue in
            QueueDescription(
                title: queue.title, maxConcurrent: queue.maxConcurrent, isBlocking: queue.isBlocking,
                isPaused: queue.isPaused)
        }
    }

    /// Every event from now on, after those that tell of the jobs still unfinished (see
    /// ``JobQueue/missedEvents()``), so that a watcher attached late lists them too.
    package func events() -> AsyncStream<JobEvent> {
        // Subscribed here, before the stream is returned and before the missed events are
        // taken, so that no event is missed; one told twice (a job added in between) is dropped.
        let streams = list.map(\.events)
        let missed = list.map { $0.missedEvents() }
        let ended = missed.reduce(0) { $0 + $1.ended }
        endedBeforeWatching.withLock { $0 = $0 ?? ended }
        return AsyncStream { continuation in
            for event in missed.flatMap(\.events) { continuation.yield(event) }
            let relay = Task {
                await withDiscardingTaskGroup { group in
                    for (stream, missed) in zip(streams, missed) {
                        group.addTask {
                            var told = MissedJobs(missed.events)
                            for await event in stream where !told.repeats(event) { continuation.yield(event) }
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// The jobs added to the queues so far, retries included, less those that had ended before
    /// ``events()`` was first called: a watcher hears this many end.
    package var jobsAdded: Int {
        list.reduce(0) { $0 + $1.jobsAdded } - (endedBeforeWatching.withLock { $0 } ?? 0)
    }

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
