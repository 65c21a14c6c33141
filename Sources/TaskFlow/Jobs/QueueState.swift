import DequeModule

/// A queue's bookkeeping, as a plain value the queue keeps behind its lock: which jobs wait to
/// start, in which order, which run, and whether the queue is paused.
///
/// Ready jobs wait in one FIFO per priority, so picking the next job is O(1). A job cancelled
/// while it waits ends at once and is skipped when its turn comes, so a cancel is O(1) too.
/// Jobs whose dependencies are unmet wait in ``blocked`` until the last one succeeds. A job
/// without dependencies costs no hashing at all: it only passes through a FIFO and the short
/// list of running jobs.
struct QueueState {
    /// The most jobs that run at once.
    let maxConcurrent: Int
    /// No job starts while paused; running jobs go on.
    var isPaused = false
    /// Jobs holding a slot: started, or picked and about to start. At most `maxConcurrent`.
    private var running: [JobRecord] = []
    /// Jobs waiting for dependencies.
    private var blocked: [JobID: JobRecord] = [:]
    /// Jobs ready to start, one FIFO per priority (indexed by raw value).
    private var ready = [Deque<JobRecord>](repeating: [], count: JobPriority.allCases.count)

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// Every job added and not yet ended: running, ready or blocked.
    var unfinished: [JobRecord] {
        running + Array(blocked.values) + ready.joined().filter { !$0.hasEnded }
    }

    /// A job was added with dependencies still unmet.
    mutating func block(_ job: JobRecord) {
        blocked[job.id] = job
    }

    /// A job's dependencies are met (`wasBlocked`) or it had none: it starts when its turn comes.
    mutating func enqueue(_ job: JobRecord, wasBlocked: Bool) {
        if wasBlocked { blocked[job.id] = nil }
        ready[job.priority.rawValue].append(job)
    }

    /// A job ended; `heldSlot` says whether it had been picked to start. A job that ended while
    /// ready stays in its FIFO and is skipped there.
    mutating func ended(_ job: JobRecord, heldSlot: Bool) {
        if heldSlot {
            release(job)
        } else if !blocked.isEmpty {
            blocked[job.id] = nil
        }
    }

    /// Picked jobs that were cancelled before they started give their slots back.
    mutating func releaseSlots(of jobs: [JobRecord]) {
        for job in jobs { release(job) }
    }

    /// Picks the jobs to start now, highest priority first and FIFO within one, and counts them
    /// as running. The caller launches them outside the lock. Mostly none or one: the first is
    /// kept inline, not in an array allocated for it.
    mutating func takeStartable() -> InlineFirstList<JobRecord> {
        var picked = InlineFirstList<JobRecord>()
        while !isPaused, running.count < maxConcurrent, let job = popNext() {
            running.append(job)
            picked.append(job)
        }
        return picked
    }

    private mutating func release(_ job: JobRecord) {
        // Few running jobs (at most `maxConcurrent`), so a scan is cheaper than hashing.
        if let index = running.firstIndex(where: { $0 === job }) {
            running.swapAt(index, running.count - 1)
            running.removeLast()
        }
    }

    private mutating func popNext() -> (JobRecord)? {
        for priority in ready.indices.reversed() {
            while let job = ready[priority].popFirst() {
                if !job.hasEnded { return job }
            }
        }
        return nil
    }
}
