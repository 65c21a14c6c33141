import TOMLSource

/// A simulated workload: flows of steps that take time, report progress, fail on purpose and
/// change a small shared state, described in a TOML file so TaskFlow can be tried without
/// writing Swift. Load one with ``Scenario/load(contentsOf:)``, check it with
/// ``ScenarioSummary``, run it with ``ScenarioRunner``.
///
/// The file format (full reference with a complete example in `demo/FORMAT.md`):
///
/// ```toml
/// name = "Publish a post"              # required
/// description = "Uploads, then the post." # optional
/// seed = 7                               # optional, drives fail_chance (default 0)
///
/// [[flow]]                               # one table per flow, in any number
/// title = "Publish"                      # required
/// access = "write"                       # "write" (default) or "read"
/// start = "500ms"                        # when it is submitted (default "0s")
/// every = "4s"                           # repeat: submitted `times` times, `every` apart
/// times = 3
/// cancel_after = "2s"                    # cancel it this long after each submission
///
/// [[flow.step]]                          # the flow's top-level steps, in order
/// group = "Upload media"                 # the kind key names the step: main, task, group,
/// steps = [                              #   sequence or update
///   { task = "Photo", duration = "1.2s", revert = "300ms" },
///   { task = "Video", duration = "3s", revert = true, fail_chance = 0.2,
///     steps = [{ main = "Show thumbnail", revert = true }] },   # foreground sub-steps
/// ]
///
/// [[flow.step]]
/// update = "Count the post"              # write flows only, top level only
/// set = { status = "published" }
/// append = { posts = "Holiday" }
/// ```
///
/// Durations are at most 24 hours (``DurationText/longest``), `times` at most 10,000
/// (``Repetition/maximumTimes``), and a flow's last submission starts within 24 hours. A file
/// has at most 100,000 flows (``maximumFlows``), 16 MiB and 100 levels of nesting.
///
/// Jobs (see ``JobSpec``) run on queues beside the flows:
///
/// ```toml
/// [[queue]]
/// title = "Uploads"
/// max_concurrent = 2                     # default 1; or threads = 8 for a blocking-work queue
///
/// [[job]]
/// title = "Upload photo"                 # required, unique
/// queue = "Uploads"                      # required
/// priority = "high"                      # "low", "normal" (default) or "high"
/// duration = "2s"                        # each attempt (default "0s")
/// start = "1s"                           # when it is added (default "0s")
/// after = ["Resize photo"]               # jobs that must succeed first
/// retry = { max_attempts = 3, backoff = "exponential", initial = "200ms", multiplier = 2, cap = "2s", jitter = 0 }
/// fail_times = 2                         # the first 2 attempts fail; or fail_chance = 0.3
/// ```
///
/// Step keys: `duration` (`"300ms"`, `"1.5s"`, `"2m"`), `revert` (a duration, or `true` for an
/// instant revert; a `main` step's revert is always instant), `progress` (task steps, default
/// `true`), `fail_at` (fail after this fraction of the step, 0...1) or `fail_chance` (the
/// probability of failing, drawn from the seed so every run with that seed fails the same steps).
package struct Scenario: Sendable, Equatable {
    /// Shown in the dashboard's header and by `taskflow demo`.
    package var name: String
    /// What the scenario shows; may span several lines.
    package var description: String
    /// Drives every `fail_chance`; a run may override it (``RunOptions/seed``).
    package var seed: UInt64
    /// The flows, in file order.
    package var flows: [FlowSpec]
    /// The job queues, in file order.
    package var queues: [QueueSpec]
    /// The jobs, in file order; each names a queue and the jobs it starts after.
    package var jobs: [JobSpec]

    /// The most `[[flow]]` tables a file may have: 100,000, the most elements any array of an
    /// input file may have (``SourceLimits/arrayElements``), refused while the file is scanned.
    /// Running costs time linear in the number of flows; the bound keeps `check` and a run's
    /// memory within reach of a laptop.
    package static let maximumFlows = SourceLimits.arrayElements

    /// The most `[[job]]` tables a file may have, like flows.
    package static let maximumJobs = SourceLimits.arrayElements

    /// Creates a scenario.
    package init(
        name: String, description: String = "", seed: UInt64 = 0, flows: [FlowSpec], queues: [QueueSpec] = [],
        jobs: [JobSpec] = []
    ) {
        self.name = name
        self.description = description
        self.seed = seed
        self.flows = flows
        self.queues = queues
        self.jobs = jobs
    }
}
