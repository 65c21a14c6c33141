import TaskFlow

/// One `[[job]]` of a scenario: simulated work added to one of its queues at `start`, after
/// the jobs it names in `after`, retried by its policy, failing on purpose as told.
package struct JobSpec: Sendable, Equatable {
    /// The job's title, unique in the scenario: `after` names jobs by it.
    package var title: String
    /// The title of the ``QueueSpec`` it is added to.
    package var queue: String
    /// Its priority on that queue.
    package var priority: JobPriority
    /// When it is added, from the start of the run; a job is never added before the jobs it
    /// waits for (see ``Scenario/jobsInAddingOrder``).
    package var start: Duration
    /// How long each attempt takes (before the speed factor).
    package var duration: Duration
    /// The titles of the jobs it starts after, each of which must succeed first.
    package var after: [String]
    /// How a failed attempt is retried.
    package var retry: RetrySpec
    /// The first attempts that fail on purpose (halfway through): `fail_times = 2` fails
    /// attempts 1 and 2, counted across the runs a retry from the dashboard adds, so such a
    /// retry goes on where the job stopped.
    package var failTimes: Int
    /// The probability that any other attempt fails, drawn from the seed and the attempt.
    package var failChance: Double

    /// Creates a job description.
    package init(
        title: String, queue: String, priority: JobPriority = .normal, start: Duration = .zero,
        duration: Duration = .zero, after: [String] = [], retry: RetrySpec = .never, failTimes: Int = 0,
        failChance: Double = 0
    ) {
        self.title = title
        self.queue = queue
        self.priority = priority
        self.start = start
        self.duration = duration
        self.after = after
        self.retry = retry
        self.failTimes = failTimes
        self.failChance = failChance
    }
}

/// A job's `retry = { ... }` table: the parts of a ``TaskFlow/RetryPolicy`` a file can say, as a
/// value that compares (a policy holds a closure). ``policy(speed:)`` builds the policy.
package struct RetrySpec: Sendable, Equatable {
    /// Runs in all, the first included.
    package var maxAttempts: Int
    /// The delays between runs, at speed 1.
    package var backoff: RetryPolicy.Backoff
    /// The fraction of each delay randomised away.
    package var jitter: Double

    /// The most runs a file may ask of one job: enough to watch backoff grow and hit its cap.
    package static let maximumAttempts = 100

    /// One run, no retry.
    package static let never = RetrySpec(maxAttempts: 1, backoff: .immediate, jitter: 0)

    /// Creates a retry description.
    package init(maxAttempts: Int, backoff: RetryPolicy.Backoff, jitter: Double = 0) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.jitter = jitter
    }

    /// The policy, its delays divided by `speed` like every other duration of a run.
    package func policy(speed: Double) -> RetryPolicy {
        switch backoff {
        case .immediate:
            .immediate(maxAttempts: maxAttempts)
        case .constant(let delay):
            .constant(maxAttempts: maxAttempts, delay: delay / speed, jitter: jitter)
        case .exponential(let initial, let multiplier, let cap):
            .exponential(maxAttempts: maxAttempts, initial: initial / speed, multiplier: multiplier, cap: cap / speed, jitter: jitter)
        }
    }
}
