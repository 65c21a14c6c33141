import TaskFlowSupport
import TaskFlow

/// A clock whose time moves only when the test says: backoffs, polls and leases timed by it
/// take no real time, and end exactly when ``advance(by:)`` moves time to or past them.
///
/// ```swift
/// let clock = TestClock()
/// let queue = JobQueue(title: "retries", clock: clock)
/// queue.add(job.retry(.constant(maxAttempts: 2, delay: .seconds(60))))
/// #expect(await clock.waitForSleepers(1))   // the job failed once and waits its backoff
/// clock.advance(by: .seconds(60))          // now it runs again
/// ```
///
/// Its instants are `ContinuousClock`'s, starting from the real time it was made, so what the
/// code under test shows (a retry's due time) compares with real instants as it would. Sleepers
/// whose deadline time reached are resumed in deadline order (then in the order they slept); a
/// cancelled sleeper throws `CancellationError` at once and no longer counts.
package final class TestClock: TimingClock, Sendable {
    package typealias Instant = ContinuousClock.Instant

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        /// Sorted by deadline, then by arrival.
        var sleepers: [Sleeper] = []
        /// Tests waiting for ``waitForSleepers(_:)``.
        var watchers: [Watcher] = []

        /// The watchers whose count the sleepers reached, removed.
        mutating func satisfiedWatchers() -> [Watcher] {
            let count = sleepers.count
            defer { watchers.removeAll { $0.count <= count } }
            return watchers.filter { $0.count <= count }
        }
    }

    private let state: Protected<State>

    /// A clock at the real time now, which will not move until advanced.
    package init() {
        state = Protected(State(now: ContinuousClock.now))
    }

    package var now: Instant { state.withLock(\.now) }

    /// Sleeps are exact here: nothing is gained by grouping them.
    package var minimumResolution: Duration { .zero }

    /// How many sleepers wait now.
    package var sleeperCount: Int { state.withLock(\.sleepers.count) }

    /// Returns once `deadline` is reached by ``advance(by:)``; at once if it already is.
    /// Throws `CancellationError` if the task is, or gets, cancelled before.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, watchers) = state.withLock { state -> (Result<Void, any Error>?, [Watcher]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    let index = state.sleepers.firstIndex { $0.deadline > deadline } ?? state.sleepers.endIndex
                    state.sleepers.insert(Sleeper(id: id, deadline: deadline, continuation: continuation), at: index)
                    return (nil, state.satisfiedWatchers())
                }
                if let resume { continuation.resume(with: resume) }
                for watcher in watchers { watcher.continuation.resume(returning: true) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` and resumes, in deadline order, every sleeper it reached.
    package func advance(by duration: Duration) {
        precondition(duration >= .zero, "TestClock: time only moves forward")
        let due = state.withLock { state -> [Sleeper] in
            state.now += duration
            let reached = state.sleepers.prefix { $0.deadline <= state.now }
            state.sleepers.removeFirst(reached.count)
            return Array(reached)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` sleepers wait — the code under test has reached its waits, so
    /// advancing now wakes them rather than racing them — for at most `seconds` of real time;
    /// returns whether they did (`#expect(await clock.waitForSleepers(1))`), so that a code path
    /// that never sleeps fails the test instead of blocking the suite.
    package func waitForSleepers(_ count: Int, within seconds: Double = 30) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            self?.giveUp(watcher: id)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let reached = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append(Watcher(id: id, count: count, continuation: continuation))
                return false
            }
            if reached { continuation.resume(returning: true) }
        }
    }

    /// Ends a ``waitForSleepers(_:within:)`` that timed out, if it still waits.
    private func giveUp(watcher id: UInt64) {
        let watcher = state.withLock { state -> Watcher? in
            guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.watchers.remove(at: index)
        }
        watcher?.continuation.resume(returning: false)
    }
}
