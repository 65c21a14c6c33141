/// The clock that times the package's own waits — job and flow-step retry backoffs, the job
/// store's polls, re-checks, retries and lease renewals — and tells them what time it is.
///
/// Programs always get `ContinuousClock`. Tests pass a clock they advance themselves, so a
/// minute's backoff takes no real time and ends exactly when the test moves time past it. Its
/// instants are `ContinuousClock`'s, so what the package shows (a retry's due time in
/// ``JobStatus/retrying(attempt:at:)``) reads the same whichever clock timed it.
package protocol TimingClock: Clock where Instant == ContinuousClock.Instant {}

extension ContinuousClock: TimingClock {}
