import TaskFlow
import TaskFlowTestSupport

/// Collects a job queue's events from the moment of the call.
final class JobEventLog: Sendable {
    private let log: StreamLog<JobEvent>

    init(_ queue: JobQueue) { log = StreamLog(queue.events) }

    var events: [JobEvent] { log.events }

    /// One line per event of `job`, without times: "added", "started 1", "progress 50",
    /// "attempt 1/3 failed: Boom(x), next in 20 ms", "finished succeeded".
    func lines(of job: JobID) -> [String] {
        events.compactMap { event in
            guard event.jobID == job else { return nil }
            switch event {
            case .added: return "added"
            case .started(_, let attempt): return "started \(attempt)"
            case .progress(_, let fraction): return "progress \(Int(fraction * 100))"
            case .attemptFailed(_, let attempt, let maxAttempts, let error, let delay):
                return "attempt \(attempt)/\(maxAttempts) failed: \(error), next in \(delay)"
            case .finished(_, let status): return "finished \(status)"
            case .paused: return nil
            }
        }
    }

    /// Waits until `job`'s `finished` event reached this observer (events arrive asynchronously).
    func waitUntilFinished(_ job: JobID) async -> Bool {
        await eventually { lines(of: job).last?.hasPrefix("finished") == true }
    }
}

/// A job that records its title when it starts and then waits for `gate`.
func gatedJob(_ title: String, _ started: Recorder<String>, gate: Gate) -> Job<String> {
    Job(title: title) { _ in
        started.record(title)
        await gate.wait()
        return title
    }
}
