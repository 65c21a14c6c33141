/// The task of a job that just ended, offered to the next job that starts: running it there
/// spares a new task, and the worker thread woken for it, per job. That is what a dependency
/// chain or a busy queue would otherwise pay for every job.
///
/// A cancel meant for the ended job must never reach the next one through the shared task, so
/// the offer is made only when no cancel of the ended job was in flight as it ended (later
/// cancels of it find it ended and do nothing), and it is taken up only if the task is not
/// cancelled. A job is taken only from the same queue, or between two queues that both run on
/// the cooperative pool, so it runs where its queue says.
///
/// A value, passed `inout` down the one synchronous call that ends a job (as an object, it was
/// a heap allocation for every job that ended, offered to a next job or not).
struct JobHandOff {
    let task: Task<Void, Never>
    private let queue: JobQueue
    /// The job taken: it holds a slot of its queue and runs next on `task`.
    private(set) var job: JobRecord?

    init(task: Task<Void, Never>, queue: JobQueue) {
        self.task = task
        self.queue = queue
    }

    /// Takes `job` if nothing was taken yet and it may run on this task.
    mutating func take(_ job: JobRecord) -> Bool {
        guard self.job == nil, job.queue === queue || (job.queue.executor == nil && queue.executor == nil) else {
            return false
        }
        self.job = job
        return true
    }
}
