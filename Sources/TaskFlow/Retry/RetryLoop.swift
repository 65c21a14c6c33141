/// What a retry loop reports after a run failed and before it waits for the next one: enough
/// for an observer to show "attempt 2/3, next in 400 ms".
public struct RetryNotice: Sendable {
    /// The run that failed, from 1.
    public let failedAttempt: Int
    /// The policy's ``RetryPolicy/maxAttempts``: how many runs there can be in all.
    public let maxAttempts: Int
    /// Why the run failed.
    public let error: any Error
    /// How long the loop waits before the next run, jitter applied.
    public let delay: Duration

    /// The number of the run that comes next.
    public var nextAttempt: Int { failedAttempt + 1 }
}

extension RetryPolicy {
    /// Runs `attempt` with run numbers 1, 2, … until it returns, or until it throws an error the
    /// policy does not retry (``shouldRetry(_:afterAttempt:)``), which is rethrown unchanged.
    ///
    /// Before each retry the loop calls `willRetry` and then `wait` with the jittered delay
    /// (``jitteredDelay(forRetry:)``). The default wait is ``sleep(_:)``, which throws
    /// `CancellationError` when the task is cancelled, so a cancel during a backoff ends the
    /// loop at once. Callers whose cancellation is not Swift task cancellation (flow steps)
    /// pass their own wait. This is the one retry loop of the package: jobs and flow steps both
    /// run it, so they count runs and wait alike.
    public func run<T>(
        wait: (Duration) async throws -> Void = RetryPolicy.sleep,
        willRetry: (RetryNotice) -> Void = { _ in },
        _ attempt: (Int) async throws -> T
    ) async throws -> T {
        // A policy that never retries runs its one attempt without the loop (its frame, closures).
        guard maxAttempts > 1 else { return try await attempt(1) }
        return try await loop(schedule: { $0 }, willRetry: { notice, _ in willRetry(notice) }, wait: wait, attempt)
    }

    /// ``run(wait:willRetry:_:)`` timed by `clock`: each backoff ends at an instant read from
    /// `clock` once, before `willRetry` hears of it, so what observers are told (a job's
    /// ``JobStatus/retrying(attempt:at:)``) is exactly when the wait ends, and a test that
    /// advances its clock once it has heard cannot move the end. `wait` gets that instant
    /// (default: sleep on `clock` until it, throwing `CancellationError` if cancelled).
    package func run<T>(
        on clock: any TimingClock,
        wait: ((ContinuousClock.Instant) async throws -> Void)? = nil,
        willRetry: (RetryNotice, _ until: ContinuousClock.Instant) -> Void = { _, _ in },
        _ attempt: (Int) async throws -> T
    ) async throws -> T {
        guard maxAttempts > 1 else { return try await attempt(1) }
        // One closure, not `wait ?? { … }`: an optional closure escapes, and its context was
        // allocated for every run, retried or not.
        return try await loop(
            schedule: { clock.now + $0 }, willRetry: willRetry,
            wait: { deadline in
                if let wait { try await wait(deadline) } else { try await RetryPolicy.sleep(until: deadline, on: clock) }
            }, attempt)
    }

    /// The loop both entry points share; `schedule` turns a backoff into what `wait` waits for.
    private func loop<T, Deadline>(
        schedule: (Duration) -> Deadline,
        willRetry: (RetryNotice, Deadline) -> Void,
        wait: (Deadline) async throws -> Void,
        _ attempt: (Int) async throws -> T
    ) async throws -> T {
        var number = 1
        while true {
            do {
                return try await attempt(number)
            } catch {
                guard shouldRetry(error, afterAttempt: number) else { throw error }
                let delay = jitteredDelay(forRetry: number)
                let deadline = schedule(delay)
                willRetry(RetryNotice(failedAttempt: number, maxAttempts: maxAttempts, error: error, delay: delay), deadline)
                try await wait(deadline)
                number += 1
            }
        }
    }

    /// Sleeps for `delay` on the continuous clock; with a zero delay it only checks for
    /// cancellation. Throws `CancellationError` if the current task is (or gets) cancelled.
    public static func sleep(_ delay: Duration) async throws {
        let clock = ContinuousClock()
        try await sleep(until: clock.now + delay, on: clock)
    }

    /// Sleeps on `clock` until `deadline`; one already reached only checks for cancellation.
    /// Throws `CancellationError` if the current task is (or gets) cancelled.
    package static func sleep(until deadline: ContinuousClock.Instant, on clock: any TimingClock) async throws {
        if deadline > clock.now {
            try await clock.sleep(until: deadline, tolerance: nil)
        } else {
            try Task.checkCancellation()
        }
    }
}
