/// The clock that times the package's own waits — job and flow-step retry backoffs, the job
/// store's polls, re-checks, commit retries and heartbeats (which renew its leases) — and
/// tells them what time it is.
///
/// Programs always get `ContinuousClock`. Tests pass a clock that moves only when they advance
/// it, so a minute's backoff takes no real time and ends exactly when the test moves time to
/// it. Its instants are `ContinuousClock`'s, so what the package shows (a retry's due time in
/// ``JobStatus/retrying(attempt:at:)``) reads the same whichever clock timed it.
package protocol TimingClock: Clock, Sendable where Instant == ContinuousClock.Instant {}

extension ContinuousClock: TimingClock {}
