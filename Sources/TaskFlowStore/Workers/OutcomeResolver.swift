import Foundation
import TaskFlow

/// Turns an executor's answer into the change of the job's row and the event that reports it,
/// applying the kind's ``RetryPolicy``: the one place where Forge's rules live.
///
/// | answer            | row                                       | event            |
/// |-------------------|-------------------------------------------|------------------|
/// | success           | deleted                                   | succeeded        |
/// | retryWhenReady    | parked, retries unchanged                 | parked           |
/// | retry(e), allowed | retries + 1, due after the policy's delay | retryScheduled   |
/// | retry(e), refused | failed (policy exhausted or error not retried) | failed      |
/// | fail(e)           | failed                                    | failed           |
/// | undecodable       | failed: the payload can never run         | failed           |
struct OutcomeResolver: Sendable {
    let recheckInterval: Duration

    func resolve(_ answer: ExecutorRegistry.Answer, of job: ClaimedJob, policy: RetryPolicy, now: Date)
        -> (Resolution, StoredJobEvent)
    {
        let (action, event) = decide(answer, job: job, policy: policy, now: now)
        return (Resolution(job: job, action: action), event)
    }

    private func decide(_ answer: ExecutorRegistry.Answer, job: ClaimedJob, policy: RetryPolicy, now: Date)
        -> (Resolution.Action, StoredJobEvent)
    {
        switch answer {
        case .undecodable(let error):
            return failure("the payload does not decode as \(job.kind): \(error)", job)
        case .outcome(.success):
            return (.delete, .succeeded(job.id, kind: job.kind))
        case .outcome(.retryWhenReady):
            return (.park(until: now + recheckInterval.timeInterval), .parked(job.id, kind: job.kind))
        case .outcome(.fail(let error)):
            return failure(String(describing: error), job)
        case .outcome(.retry(let error)):
            // Claims hand over counts in range (``JobRowDecoding/retries``); this guards the
            // policy's precondition and the increment against any other caller all the same.
            guard job.retries >= 0, case (let runs, false) = job.retries.addingReportingOverflow(1) else {
                return failure("retries is \(job.retries), not a count: \(error)", job)
            }
            guard policy.shouldRetry(error, afterAttempt: runs) else {
                let why = runs >= policy.maxAttempts ? "gave up after \(runs) runs" : "not retried"
                return failure("\(why): \(error)", job)
            }
            let at = now + policy.jitteredDelay(forRetry: runs).timeInterval
            let reason = String(describing: error)
            return (
                .schedule(retries: runs, at: at, reason: reason),
                .retryScheduled(job.id, kind: job.kind, retries: runs, at: at, reason: reason)
            )
        }
    }

    private func failure(_ reason: String, _ job: ClaimedJob) -> (Resolution.Action, StoredJobEvent) {
        (.fail(retries: job.retries, reason: reason), .failed(job.id, kind: job.kind, reason: reason))
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic (backends in other modules too).
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }
}
