import DequeModule

/// A queue's bookkeeping, as a plain value the queue keeps behind its lock: which jobs wait to
/// start, in which order, how many run, and whether the queue is paused.
///
/// Ready jobs wait in one FIFO per priority, so picking the next job is O(1). A job cancelled
/// while it waits leaves ``unfinished`` at once and is skipped when its turn comes, so a cancel
/// is O(1) too. Jobs whose dependencies are unmet are not in any FIFO: their dependencies hold
/// them, and they are enqueued when the last one succeeds.
struct QueueState {
    /// The most jobs that run at once.
    let maxConcurrent: Int
    /// No job starts while paused; running jobs go on.
    var isPaused = false
    /// Every job added and not yet ended (waiting or running), for ``JobQueue/cancelAll()``.
    private(set) var unfinished: [JobID: any ScheduledJob] = [:]
    /// How many jobs hold a slot: started, or picked and about to start.
    private(set) var running = 0
    /// Jobs ready to start, one FIFO per priority (indexed by raw value).
    private var ready = [Deque<any ScheduledJob>](repeating: [], count: JobPriority.allCases.count)

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// A job was added.
    mutating func register(_ job: any ScheduledJob) {
        unfinished[job.id] = job
    }

    /// A job's dependencies are met: it may start when its turn comes.
    mutating func enqueue(_ job: any ScheduledJob) {
        ready[job.priority.rawValue].append(job)
    }

    /// A job ended; `heldSlot` says whether it had been picked to start.
    mutating func ended(_ id: JobID, heldSlot: Bool) {
        unfinished[id] = nil
        if heldSlot { running -= 1 }
    }

    /// Picked jobs that turned out to be cancelled before they started give their slots back.
    mutating func releaseSlots(_ count: Int) {
        running -= count
    }

    /// Picks the jobs to start now, highest priority first and FIFO within one, and counts them
    /// as running. The caller launches them outside the lock.
    mutating func takeStartable() -> [any ScheduledJob] {
        var picked: [any ScheduledJob] = []
        while !isPaused, running < maxConcurrent, let job = popNext() {
            running += 1
            picked.append(job)
        }
        return picked
    }

    private mutating func popNext() -> (any ScheduledJob)? {
        for priority in ready.indices.reversed() {
            while let job = ready[priority].popFirst() {
                // Skip jobs cancelled while they waited: they already left `unfinished`.
                if unfinished[job.id] != nil { return job }
            }
        }
        return nil
    }
}
