import Foundation
import TaskFlow

/// What a store's workers wait on, and what time it is for the dates they write.
///
/// Due times of retries and parked jobs, lease ends and heartbeats are wall-clock dates in the
/// database, compared with those other processes write, so the real clock's dates are `Date()`.
/// A clock made to follow a test's clock reads the date that clock's time stands for, so a test
/// that advances it moves the workers' waits, due times, leases and heartbeats together, and
/// exactly.
package struct StoreClock: Sendable {
    /// What the workers' polls, re-checks, commit retries and heartbeats sleep on.
    package let timer: any TimingClock
    /// An instant of ``timer`` and the date it stands for; nil for the real clock, whose dates
    /// are the system's.
    private let origin: (instant: ContinuousClock.Instant, date: Date)?

    /// The real clock: waits on `ContinuousClock`, dates from the system.
    package static let system = StoreClock(timer: ContinuousClock(), origin: nil)

    private init(timer: any TimingClock, origin: (instant: ContinuousClock.Instant, date: Date)?) {
        self.timer = timer
        self.origin = origin
    }

    /// Waits on `clock`, with dates that move exactly as far as it does, from the real date now.
    package init(following clock: any TimingClock) {
        self.init(timer: clock, origin: (clock.now, Date()))
    }

    /// The time now, on ``timer``.
    package var now: ContinuousClock.Instant { timer.now }

    /// The date now, as the store writes and compares it.
    package var date: Date { date(at: timer.now) }

    /// The date `instant` of ``timer`` stands for: what a worker that read the time once writes.
    package func date(at instant: ContinuousClock.Instant) -> Date {
        guard let origin else { return Date() - (ContinuousClock.now - instant).timeInterval }
        return origin.date + (instant - origin.instant).timeInterval
    }

    /// Returns at `deadline` on ``timer`` (at once if it passed); throws `CancellationError` if
    /// cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await RetryPolicy.sleep(until: deadline, on: timer)
    }
}
