/// Errors a queue raises for a job instead of running it.
public enum JobError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `job` did not run because `dependency`, a job it was added after, failed
    /// (`cancelled: false`) or was cancelled (`cancelled: true`).
    case dependencyFailed(job: String, dependency: String, cancelled: Bool)

    /// One line naming the job and the dependency.
    public var description: String {
        switch self {
        case .dependencyFailed(let job, let dependency, let cancelled):
            "'\(job)' did not run: its dependency '\(dependency)' \(cancelled ? "was cancelled" : "failed")"
        }
    }
}
