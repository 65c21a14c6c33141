import ConsoleProtocol
import TaskFlow

/// A watched program's job queues: their events as the program sends them, and the keys'
/// cancel, pause, resume and retry as commands to it.
struct RemoteQueues: JobQueueSource {
    /// As the program described them when attaching; pauses since come as events.
    let queues: [QueueDescription]
    let jobEvents: HeldStream<JobEvent>
    let commands: RemoteCommands

    func events() -> AsyncStream<JobEvent> { jobEvents.take() }

    func cancel(_ id: JobID) { commands.fire(.cancelJob(id), "cancel of job \(id)") }

    func setPaused(_ paused: Bool, queue: String) {
        commands.fire(paused ? .pauseQueue(queue) : .resumeQueue(queue), "\(paused ? "pause" : "resume") of \(queue)")
    }

    /// Not known here: an attached dashboard ends with the program, not with its jobs.
    var jobsAdded: Int { 0 }

    /// Asks the program to retry; its reply shows in the status line when it comes (the new
    /// runs come as its events).
    func retry(_ id: JobID) throws -> [JobID] {
        commands.fire(.retryJob(id), "retry of job \(id)")
        return []
    }
}
