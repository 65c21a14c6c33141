/// What a ``Boot`` reports while it runs, in the order it happened: enough for a dashboard to
/// draw the boot as a flow (its tasks as steps, with timings) and for a log to explain a failure.
///
/// Times are offsets from the boot's start (``started(boot:tasks:)``) on the continuous clock, so
/// they need no wall clock and compare directly with each other.
public enum BootEvent: Sendable, Equatable {
    /// The graph was valid and the boot began. `tasks` lists every task and observer in the
    /// order they were added, with what each runs after: the shape of the flow to draw.
    case started(boot: String, tasks: [BootTaskInfo])
    /// A task's body began (all its dependencies had succeeded). Observers start at once.
    case taskStarted(task: String, at: Duration)
    /// A task's body returned. Observers finish at once, with `elapsed == .zero`.
    case taskFinished(task: String, at: Duration, elapsed: Duration)
    /// A task's body threw `error` (its description). The boot starts nothing after this.
    case taskFailed(task: String, at: Duration, elapsed: Duration, error: String)
    /// The task never started: something it depends on failed, or the boot failed or was
    /// cancelled first. Reported after the last running task ended.
    case taskSkipped(task: String)
    /// The boot ended: `failure` is nil when every task finished, else the description of the
    /// error `run()` throws. This is the stream's last event.
    case finished(boot: String, elapsed: Duration, failure: String?)
}

/// One task of a boot as ``BootEvent/started(boot:tasks:)`` describes it.
public struct BootTaskInfo: Sendable, Equatable {
    /// The task's unique title.
    public let title: String
    /// The titles it runs after, as given to `after:`.
    public let after: [String]
    /// Whether it is an observer: done at once, it only receives the boot's events.
    public let isObserver: Bool

    /// A description of one task; ``Boot`` builds these, tests may compare with them.
    public init(title: String, after: [String], isObserver: Bool) {
        self.title = title
        self.after = after
        self.isObserver = isObserver
    }
}
