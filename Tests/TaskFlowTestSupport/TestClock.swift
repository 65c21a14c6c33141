import TaskFlow
import TaskFlowSupport

/// A clock whose time moves only when the test says: backoffs, polls, re-checks and heartbeats
/// timed by it take no real time, and end exactly when ``advance(to:)`` moves time to them.
///
/// ```swift
/// let clock = TestClock()
/// let queue = JobQueue(title: "retries", clock: clock)
/// let handle = queue.add(job.retry(.constant(maxAttempts: 2, delay: .seconds(60))))
/// let due = clock.now + .seconds(60)
/// #expect(await eventually { handle.status == .retrying(attempt: 2, at: due) })
/// clock.advance(to: due)                      // now it runs again
/// ```
///
/// How a test keeps in step with the code under test, without ever counting sleepers (the
/// first version of this clock waited for "N sleepers", and under ThreadSanitizer it waited for
/// one that had already been woken, or that was a different task):
/// - Time moves only in ``advance(to:)``, and never back. Every sleep whose deadline that time
///   reached is resumed, in deadline order; a sleep that starts later with a deadline already
///   reached returns at once. So a wait can never be stranded by an advance that came before
///   it, or between its reading the time and its going to sleep.
/// - The code under test reads the time once, when it decides how long to wait, and announces
///   the decision afterwards (a job's `retrying` status, a store's `retryScheduled` event). A
///   test that advances only after the announcement therefore moves time for a wait whose end
///   is already fixed. Wait on those announcements.
/// - When there is no announcement (a plain `Job.run`), or to prove that something is still
///   waiting, ``waitForSleep(until:count:within:)`` waits for a sleep with that exact deadline
///   to be pending. Until the test advances to that deadline such a sleep cannot end (short of
///   being cancelled), so the answer cannot be stale.
///
/// Its instants are `ContinuousClock`'s, starting from the real time it was made, so what the
/// code under test shows (a retry's due time) compares with real instants as it would.
package final class TestClock: TimingClock {
    package typealias Instant = ContinuousClock.Instant

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A test waiting in ``waitForSleep(until:count:within:)``.
    private struct Watcher {
        let id: UInt64
        let deadline: Instant
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Instant
        var lastID: UInt64 = 0
        /// Sorted by deadline, then by arrival.
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []

        mutating func nextID() -> UInt64 {
            lastID += 1
            return lastID
        }

        func pending(until deadline: Instant) -> Int {
            sleepers.lazy.filter { $0.deadline == deadline }.count
        }

        /// The watchers whose sleeps are pending now, removed.
        mutating func satisfiedWatchers() -> [Watcher] {
            let satisfied = watchers.filter { pending(until: $0.deadline) >= $0.count }
            watchers.removeAll { watcher in satisfied.contains { $0.id == watcher.id } }
            return satisfied
        }

        /// The watchers that can no longer be satisfied (time passed their deadline), removed.
        mutating func hopelessWatchers() -> [Watcher] {
            let hopeless = watchers.filter { $0.deadline <= now }
            watchers.removeAll { $0.deadline <= now }
            return hopeless
        }
    }

    private let state: Protected<State>

    /// A clock at the real time now, which will not move until advanced.
    package init() {
        state = Protected(State(now: ContinuousClock.now))
    }

    package var now: Instant { state.withLock(\.now) }

    /// Sleeps end exactly at their deadline here: nothing is gained by grouping them.
    package var minimumResolution: Duration { .zero }

    /// The deadlines of the sleeps pending now, as offsets from now, soonest first: for the
    /// message of a failed expectation.
    package var pendingSleeps: [Duration] {
        state.withLock { state in state.sleepers.map { $0.deadline - state.now } }
    }

    /// Returns once time reaches `deadline`; at once if it already has. Throws
    /// `CancellationError` if the task is, or gets, cancelled first.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.nextID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, satisfied) = state.withLock { state -> (Result<Void, any Error>?, [Watcher]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    let index = state.sleepers.firstIndex { $0.deadline > deadline } ?? state.sleepers.endIndex
                    state.sleepers.insert(Sleeper(id: id, deadline: deadline, continuation: continuation), at: index)
                    return (nil, state.satisfiedWatchers())
                }
                if let resume { continuation.resume(with: resume) }
                for watcher in satisfied { watcher.continuation.resume(returning: true) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time to `instant` (never back: an instant already passed leaves it where it is)
    /// and resumes, in deadline order, every sleep it reached.
    package func advance(to instant: Instant) {
        let (due, hopeless) = state.withLock { state -> ([Sleeper], [Watcher]) in
            state.now = max(state.now, instant)
            let reached = state.sleepers.prefix { $0.deadline <= state.now }
            state.sleepers.removeFirst(reached.count)
            return (Array(reached), state.hopelessWatchers())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in hopeless { watcher.continuation.resume(returning: false) }
    }

    /// Moves time on by `duration` (see ``advance(to:)``).
    package func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Waits until at least `count` sleeps with exactly this deadline are pending, and returns
    /// true; false at once if time already reached `deadline` (no such sleep can be pending),
    /// and after `seconds` of real time if they never come — a bound that only a broken code
    /// path reaches, so that it fails its test instead of blocking the suite.
    package func waitForSleep(until deadline: Instant, count: Int = 1, within seconds: Double = 60) async -> Bool {
        let id = state.withLock { $0.nextID() }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            self?.giveUp(watcher: id)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if deadline <= state.now { return false }
                if state.pending(until: deadline) >= count { return true }
                state.watchers.append(Watcher(id: id, deadline: deadline, count: count, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Ends a ``waitForSleep(until:count:within:)`` that ran out of time, if it still waits.
    private func giveUp(watcher id: UInt64) {
        let watcher = state.withLock { state -> Watcher? in
            guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.watchers.remove(at: index)
        }
        watcher?.continuation.resume(returning: false)
    }
}
