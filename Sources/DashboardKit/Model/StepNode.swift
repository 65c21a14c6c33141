import TaskFlow

/// One step of a flow in the detail pane's tree.
package struct StepNode: Sendable, Hashable {
    /// The engine's description: id, parent, title, kind.
    package let info: StepInfo
    /// How deep it is nested under groups, sequences and background steps (0 at the top).
    package let depth: Int
    /// Where it stands now.
    package var status: StepStatus = .running
    /// When its apply started, since the dashboard started (before it, negative: a step of a
    /// flow adopted from a snapshot).
    package internal(set) var startedAt: Duration
    /// When its apply ended; the duration shown stays the apply's during a rollback.
    package var endedAt: Duration?
    /// Its last reported progress (0...1) while running.
    package var progress: Double?
    /// When it last reported progress, on the dashboard's clock; nil before its first report
    /// (the stalled-step warning counts from ``startedAt`` then).
    package var progressAt: Duration?

    /// How long its apply ran (or has been running, at `now`).
    package func duration(at now: Duration) -> Duration {
        (endedAt ?? now) - startedAt
    }
}
