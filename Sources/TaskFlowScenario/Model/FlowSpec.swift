import TaskFlow

/// One `[[flow]]` of a scenario: what the runner submits to the manager, when, and how often.
package struct FlowSpec: Sendable, Equatable {
    /// The flow's title; repeated submissions get " (2/3)"-style suffixes.
    package var title: String
    /// Read flows share the lock and see a snapshot; write flows run alone and may `update`.
    package var access: FlowAccess
    /// When the first submission happens, from the start of the run.
    package var start: Duration
    /// Further submissions, if any.
    package var repetition: Repetition?
    /// Cancels each submission this long after it was submitted, if set: how a scenario shows a
    /// rollback without someone pressing a key.
    package var cancelAfter: Duration?
    /// The top-level steps, run in order.
    package var steps: [StepSpec]

    /// Creates a flow description.
    package init(
        title: String, access: FlowAccess = .write, start: Duration = .zero,
        repetition: Repetition? = nil, cancelAfter: Duration? = nil, steps: [StepSpec]
    ) {
        self.title = title
        self.access = access
        self.start = start
        self.repetition = repetition
        self.cancelAfter = cancelAfter
        self.steps = steps
    }

    /// How many times the flow is submitted.
    package var submissions: Int { repetition?.times ?? 1 }

    /// When submission `index` (from 0) happens, from the start of the run.
    package func startOfSubmission(_ index: Int) -> Duration {
        start + (repetition?.every ?? .zero) * index
    }
}

/// A flow submitted `times` times in total, `every` apart.
package struct Repetition: Sendable, Equatable {
    /// The time between two submissions.
    package var every: Duration
    /// How many submissions in total, at least 1 and at most ``maximumTimes``.
    package var times: Int

    /// The most submissions a file may ask of one flow. Submissions are made one at a time, so
    /// this is not about memory: it keeps `every * times` and the counts a summary adds up far
    /// from overflowing, and nobody watches ten thousand repeats of a demo anyway.
    package static let maximumTimes = 10_000

    /// Creates a repetition.
    package init(every: Duration, times: Int) {
        self.every = every
        self.times = times
    }
}
