import TaskFlow
import TaskFlowDashboard
import TaskFlowScenario

/// A scenario's job queues as the dashboard's queues view sees them: their events merged into
/// one stream, and the keys' cancel, pause and retry carried out on the scenario's jobs.
struct ScenarioQueueSource: JobQueueSource {
    let jobs: ScenarioJobs
    let specs: [QueueSpec]

    var queues: [QueueDescription] {
        zip(specs, jobs.queues).map { spec, queue in
            QueueDescription(title: spec.title, maxConcurrent: spec.maxConcurrent, isBlocking: spec.isBlocking, isPaused: queue.isPaused)
        }
    }

    func events() -> AsyncStream<JobEvent> {
        // Subscribed here, before the stream is returned, so no event is missed.
        let streams = jobs.queues.map(\.events)
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

    var jobsAdded: Int { jobs.addedCount }

    func cancel(_ id: JobID) { jobs.cancel(id) }

    func setPaused(_ paused: Bool, queue: String) {
        for (spec, jobQueue) in zip(specs, jobs.queues) where spec.title == queue {
            if paused { jobQueue.pause() } else { jobQueue.resume() }
        }
    }

    func retry(_ id: JobID) throws -> [JobID] { try jobs.retry(id) }
}
