import Foundation
import TaskFlow

/// What a store's workers wait on, and what time it is for the dates they write.
///
/// Due times of retries and parked jobs, lease ends and heartbeats are wall-clock dates in the
/// database, compared with those other processes write, so the real clock reads `Date()`. A
/// clock made to follow a test's clock reads the date that clock's time stands for, so a test
/// that advances it moves the workers' waits, due times and leases together, and exactly.
package struct StoreClock: Sendable {
    /// What the workers' polls, re-checks and heartbeats sleep on.
    package let timer: any TimingClock
    private let currentDate: @Sendable () -> Date

    private init(timer: any TimingClock, date: @escaping @Sendable () -> Date) {
        self.timer = timer
        currentDate = date
    }

    /// The real clock: waits on `ContinuousClock`, dates from the system.
    package static let system = StoreClock(timer: ContinuousClock(), date: { Date() })

    /// Waits on `clock`, and dates that move exactly as far as it does, from the real date now.
    package init(following clock: any TimingClock) {
        let start = (instant: clock.now, date: Date())
        self.init(timer: clock) { start.date + (clock.now - start.instant).timeInterval }
    }

    /// The date now, as the store writes and compares it.
    package var date: Date { currentDate() }

    /// Returns after `duration` on ``timer``; throws `CancellationError` if cancelled first.
    func sleep(for duration: Duration) async throws {
        try await timer.sleep(until: timer.now + duration, tolerance: nil)
    }
}
