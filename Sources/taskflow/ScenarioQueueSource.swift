import DashboardKit
import TaskFlow
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

    /// Every queue's events, merged.
    func events() -> AsyncStream<JobEvent> { JobQueueList(jobs.queues).events() }

    var jobsAdded: Int { jobs.addedCount }

    func cancel(_ id: JobID) { jobs.cancel(id) }

    func setPaused(_ paused: Bool, queue: String) {
        for (spec, jobQueue) in zip(specs, jobs.queues) where spec.title == queue {
            if paused { jobQueue.pause() } else { jobQueue.resume() }
        }
    }

    func retry(_ id: JobID) throws -> [JobID] { try jobs.retry(id) }
}
