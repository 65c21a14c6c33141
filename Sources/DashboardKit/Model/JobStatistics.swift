import TaskFlow

/// Numbers over time for the jobs of in-process queues, built from their events on the
/// dashboard's clock: how long each job title's runs took, and how many jobs succeeded and
/// failed in each of the last 60 seconds.
///
/// Memory is bounded as ``RunStatistics``'s is: a fixed-size histogram per title (at most
/// ``TitledHistograms/capacity`` titles), a ring of 60 counters per series, and at most
/// ``RunStatistics/pendingLimit`` runs timed at once.
package struct JobStatistics: Sendable, Hashable {
    /// How long runs of each job title took, one entry per attempt: from its start to its end,
    /// succeeded, failed (retried or not) or cancelled.
    package private(set) var jobs = TitledHistograms()
    /// Jobs that succeeded, per second.
    package private(set) var completions = PerSecondCounts()
    /// Jobs that failed for good (after their last attempt), per second; an attempt that will be
    /// retried is not a failure yet, and a cancelled job counts in neither series.
    package private(set) var failures = PerSecondCounts()

    /// When each job now running started its attempt.
    private var runningSince: [JobID: Duration] = [:]

    /// No job seen yet.
    package init() {}

    /// Takes in `event`, which happened at `time`; `title` looks up the title of a job the board
    /// knows.
    package mutating func record(_ event: JobEvent, at time: Duration, title: (JobID) -> String?) {
        switch event {
        case .started(let id, _):
            if runningSince.count < RunStatistics.pendingLimit { runningSince[id] = time }
        case .attemptFailed(let id, _, _, _, _):
            endRun(id, at: time, title: title)
        case .finished(let id, let status):
            endRun(id, at: time, title: title)
            switch status {
            case .succeeded: completions.record(at: time)
            case .failed: failures.record(at: time)
            default: break
            }
        case .added, .progress, .paused:
            break
        }
    }

    private mutating func endRun(_ id: JobID, at time: Duration, title: (JobID) -> String?) {
        guard let start = runningSince.removeValue(forKey: id), let title = title(id) else { return }
        jobs.record(time - start, for: title)
    }

    /// True while some second of the last minute counted a job that ended.
    package func isRecent(at now: Duration) -> Bool {
        completions.total(endingAt: now) + failures.total(endingAt: now) > 0
    }
}
