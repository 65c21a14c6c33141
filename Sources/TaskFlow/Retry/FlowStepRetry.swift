extension StepContext {
    /// A background step that runs again after a failure, as `policy` says.
    ///
    /// ```swift
    /// try await flow.task(title: "Upload", retry: .constant(maxAttempts: 3, delay: .milliseconds(200)),
    ///                     apply: { task in try await upload() }, revert: { task, _ in try await remove() })
    /// ```
    ///
    /// Each attempt is one ``task(title:apply:revert:)`` step — the first titled `title`, the
    /// next ones "`title` (attempt 2/3)" — so the engine's rules hold for every attempt:
    /// - an attempt that throws is not reverted itself, but the foreground sub-steps it applied
    ///   are reverted (last first) before the next attempt starts, so nothing of a failed
    ///   attempt stays applied;
    /// - `revert` is registered once, by the attempt that succeeded, and reverts only it;
    /// - no attempt starts once the flow is cancelled, and a cancel during the backoff ends the
    ///   wait within about 10 ms (the flow's cancel is a flag, not Swift task cancellation, so
    ///   the wait checks it in slices); the step then throws `CancellationError`.
    ///
    /// An attempt whose sub-step reverts failed (``RollbackIncompleteError``) is not retried: the
    /// state is no longer known to be clean, so the error goes on and the flow rolls back.
    /// Observers see every attempt as its own `stepStarted` / `stepFinished` pair, and between two
    /// attempts a ``FlowEvent/stepRetrying(_:_:)`` with the delay.
    @discardableResult
    public func task<T: Sendable>(
        title: String,
        retry policy: RetryPolicy,
        apply: (TaskContext<State>) async throws -> T,
        revert: (@Sendable (TaskContext<State>, T) async throws -> Void)? = nil
    ) async throws -> T {
        let retryable = policy.retrying(if: { !($0 is RollbackIncompleteError) })
        let record = scope.record
        let announce = { (notice: RetryNotice, _: ContinuousClock.Instant) in
            record.stepRetrying(StepRetry(
                title: title, nextAttempt: notice.nextAttempt, maxAttempts: notice.maxAttempts, delay: notice.delay,
                error: String(describing: notice.error)))
        }
        return try await retryable.run(on: record.clock, wait: waitUnlessCancelled, willRetry: announce) { attempt in
            let stepTitle = attempt == 1 ? title : "\(title) (attempt \(attempt)/\(policy.maxAttempts))"
            return try await task(title: stepTitle, apply: apply, revert: revert)
        }
    }

    /// Waits on the flow's clock until `deadline`, or less if the flow gets cancelled, then
    /// throws `CancellationError`.
    private func waitUnlessCancelled(until deadline: ContinuousClock.Instant) async throws {
        let slice = Duration.milliseconds(10)
        let clock = scope.record.clock
        while !isCancelled, clock.now < deadline {
            try await clock.sleep(until: min(deadline, clock.now + slice), tolerance: nil)
        }
        if isCancelled { throw CancellationError() }
    }
}
