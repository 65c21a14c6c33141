import TaskFlow

import Synchronization

/// Turns a ``JobSpec`` into a ``TaskFlow/Job``: each attempt takes the spec's duration in
/// ``StepPlayer/ticks`` slices, reporting progress and checking for a cancel after each, and
/// fails on purpose halfway when `fail_times` or `fail_chance` say so. A job of a blocking
/// queue blocks its thread for each slice, as a synchronous call would; the others suspend.
struct JobPlayer: Sendable {
    let pacer: Pacer
    let dice: FailureDice

    /// The job for the spec at `index` (its place in the file, which addresses its dice).
    /// `attempts` counts the job's attempts across its runs, so that `fail_times` means the
    /// job's first attempts ever: a run added again by a retry goes on from there.
    func job(_ spec: JobSpec, index: Int, blocking: Bool, attempts: AttemptCounter) -> Job<Void> {
        Job(title: spec.title) { context in
            let attempt = attempts.next()
            try await play(spec, attempt: attempt, blocking: blocking, address: "job \(index)", context: context)
        }
        .retry(spec.retry.policy(speed: pacer.speed))
    }

    private func play(_ spec: JobSpec, attempt: Int, blocking: Bool, address: String, context: JobContext) async throws {
        let failAt = failurePoint(spec, attempt: attempt, address: address)
        let ticks = StepPlayer.ticks
        context.progress(0)
        for tick in 1...ticks {
            let fraction = Double(tick) / Double(ticks)
            if let failAt, fraction > failAt {
                throw InjectedFailure(step: spec.title, fraction: failAt)
            }
            try await wait(spec.duration / ticks, blocking: blocking)
            if context.isCancelled { throw CancellationError() }
            context.progress(fraction)
        }
    }

    /// Where this attempt fails: halfway for the first `fail_times` attempts, else where the
    /// dice say for `fail_chance`; nil when it does not fail.
    private func failurePoint(_ spec: JobSpec, attempt: Int, address: String) -> Double? {
        if attempt <= spec.failTimes { return 0.5 }
        guard spec.failChance > 0 else { return nil }
        return dice.failurePoint(of: .chance(spec.failChance), at: "\(address)/\(attempt)")
    }

    private func wait(_ duration: Duration, blocking: Bool) async throws {
        if blocking {
            pacer.block(duration)
        } else {
            try await pacer.wait(duration)
        }
    }
}

/// Counts one job's attempts across all its runs.
final class AttemptCounter: Sendable {
    private let count = Atomic(0)

    /// The number of the attempt starting now, from 1.
    func next() -> Int { count.wrappingAdd(1, ordering: .relaxed).newValue }
}
