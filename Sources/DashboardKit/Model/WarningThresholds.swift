/// When the warnings (``DashboardWarning``) fire: the limits a user may set in the preferences'
/// `[warnings]` table (see ``PreferencesParser``). Times are on the dashboard's clock
/// (``SharedState/now``), never the wall clock, so a replay warns as the live run did.
package struct WarningThresholds: Sendable, Hashable {
    /// A writer in the lock's queue warns once more than this many read phases (stretches of
    /// the lock held for reading) began while it waited. Default 3; key `writer-read-phases`.
    package var writerReadPhases: Int
    /// A writer in the lock's queue warns once it waited longer than this. Default 30 s; key
    /// `writer-wait-seconds`.
    package var writerWait: Duration
    /// A running step warns once it went longer than this without a progress report (or since
    /// it started, when it never reported one). Default 60 s; key `step-stall-seconds`.
    package var stepStall: Duration
    /// An unfinished job (queued or stored) warns once it was retried more than this many
    /// times. Default 3; key `job-retries`.
    package var jobRetries: Int

    /// The defaults: a writer passed by 3 read phases or waiting 30 s, a step silent for a
    /// minute, a job retried 3 times, are each unusual in a healthy program but not rare enough
    /// to be noise.
    package init(writerReadPhases: Int = 3, writerWait: Duration = .seconds(30), stepStall: Duration = .seconds(60), jobRetries: Int = 3) {
        self.writerReadPhases = writerReadPhases
        self.writerWait = writerWait
        self.stepStall = stepStall
        self.jobRetries = jobRetries
    }

    /// The counts a file may give (`writer-read-phases`, `job-retries`): 0 warns at the first.
    package static let counts = 0...1_000_000
    /// The seconds a file may give (`writer-wait-seconds`, `step-stall-seconds`): at least a
    /// tenth of a second (less would warn at every frame), at most a week.
    package static let seconds = 0.1...604_800.0
}
