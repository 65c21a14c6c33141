/// Where a scheduled job is in its life. It moves forward only:
/// `waiting → running ⇄ retrying → succeeded | failed | cancelled`, or straight from `waiting`
/// to `failed` (a dependency failed) or `cancelled` (cancelled before it started).
public enum JobStatus: Sendable, Hashable, CustomStringConvertible {
    /// Added, not started: its dependencies are unfinished, its queue is full or paused, or
    /// jobs of higher priority or added earlier start first.
    case waiting
    /// Its body is running.
    case running
    /// A run failed; run number `attempt` starts at `at` (after the policy's backoff).
    case retrying(attempt: Int, at: ContinuousClock.Instant)
    /// Its last run returned a value.
    case succeeded
    /// Its last run threw, or it never ran because a dependency failed; the error's description.
    case failed(String)
    /// It was cancelled: before it started (it never ran) or while running (it stopped by
    /// throwing `CancellationError`).
    case cancelled

    /// True for `succeeded`, `failed` and `cancelled`: nothing will change any more.
    public var isFinished: Bool {
        switch self {
        case .waiting, .running, .retrying: false
        case .succeeded, .failed, .cancelled: true
        }
    }

    /// The final status of a run that ended with `error`, or succeeded (nil).
    init(endedWith error: (any Error)?) {
        switch error {
        case nil: self = .succeeded
        case let error? where error is CancellationError: self = .cancelled
        case let error?: self = .failed(String(describing: error))
        }
    }

    /// The status's name without what it carries: "waiting", "running", "retrying",
    /// "succeeded", "failed", "cancelled" — what a list or a test matches on.
    public var name: String {
        switch self {
        case .waiting: "waiting"
        case .running: "running"
        case .retrying: "retrying"
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// "waiting", "running", "retrying (attempt 2)", "succeeded", "failed: …", "cancelled".
    public var description: String {
        switch self {
        case .waiting: "waiting"
        case .running: "running"
        case .retrying(let attempt, _): "retrying (attempt \(attempt))"
        case .succeeded: "succeeded"
        case .failed(let message): "failed: \(message)"
        case .cancelled: "cancelled"
        }
    }
}
