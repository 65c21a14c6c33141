import TaskFlow
import TOMLSource

/// What `taskflow check` prints for a valid scenario: its flows, its steps by kind, and how
/// long it takes.
package struct ScenarioSummary: Sendable, Equatable, CustomStringConvertible {
    /// The scenario's name.
    package let name: String
    /// `[[flow]]` tables in the file.
    package let flows: Int
    /// Flows submitted when it runs, repetitions included.
    package let submissions: Int
    /// Submissions that take the lock for reading.
    package let readSubmissions: Int
    /// Steps by kind, as declared.
    package let steps: StepCounts
    /// `[[queue]]` tables, and how many of them are blocking-work queues.
    package let queues: Int
    /// The blocking-work queues among ``queues``.
    package let blockingQueues: Int
    /// `[[job]]` tables.
    package let jobs: Int
    /// Jobs that wait for others (`after`).
    package let dependentJobs: Int
    /// Jobs that may run more than once (`retry`).
    package let retriedJobs: Int
    /// When the last step of the last submission ends at speed 1 if nothing fails, nothing is
    /// cancelled and no flow waits for the lock: a lower bound on the real run.
    package let totalDuration: Duration

    /// Summarizes `scenario`.
    package init(_ scenario: Scenario) {
        name = scenario.name
        flows = scenario.flows.count
        submissions = scenario.flows.map(\.submissions).reduce(0, +)
        readSubmissions = scenario.flows.filter { $0.access == .read }.map(\.submissions).reduce(0, +)
        steps = StepCounts(scenario.flows.flatMap(\.steps))
        totalDuration = scenario.flows.map(Self.end(of:)).max() ?? .zero
        queues = scenario.queues.count
        blockingQueues = scenario.queues.filter(\.isBlocking).count
        jobs = scenario.jobs.count
        dependentJobs = scenario.jobs.filter { !$0.after.isEmpty }.count
        retriedJobs = scenario.jobs.filter { $0.retry.maxAttempts > 1 }.count
    }

    /// Several lines, for a terminal; the name, written by the user, has its control
    /// characters escaped so it cannot move the cursor or forge a line.
    package var description: String {
        let kinds = [("main", steps.main), ("task", steps.task), ("group", steps.group), ("sequence", steps.sequence), ("update", steps.update)]
        var lines = [
            name.escapingControlCharacters,
            "  flows: \(flows) (\(submissions) submission\(submissions == 1 ? "" : "s"): \(submissions - readSubmissions) write, \(readSubmissions) read)",
            "  steps: \(steps.total) (\(kinds.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")))",
        ]
        if jobs > 0 {
            lines.append("  jobs: \(jobs) on \(queues) queue\(queues == 1 ? "" : "s") (\(blockingQueues) blocking); "
                + "\(dependentJobs) wait for others, \(retriedJobs) retry")
        }
        lines.append("  duration: at least \(DurationText.format(totalDuration)) at speed 1 (longer when flows wait for the lock)")
        return lines.joined(separator: "\n")
    }

    /// When the flow's last submission ends, with no waiting.
    private static func end(of flow: FlowSpec) -> Duration {
        flow.startOfSubmission(flow.submissions - 1) + flow.steps.map(length(of:)).reduce(.zero, +)
    }

    /// How long a step takes: groups take their longest child, sequences the sum, tasks their
    /// duration plus their foreground sub-steps'.
    static func length(of step: StepSpec) -> Duration {
        switch step.kind {
        case .main(let work): work.duration
        case .task(let work, let foreground): foreground.map(length(of:)).reduce(work.duration, +)
        case .group(let children): children.map(length(of:)).max() ?? .zero
        case .sequence(let children): children.map(length(of:)).reduce(.zero, +)
        case .update: .zero
        }
    }
}
