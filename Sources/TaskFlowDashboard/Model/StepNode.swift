import TaskFlow

/// One step of a flow in the detail pane's tree.
public struct StepNode: Sendable, Hashable {
    /// The engine's description: id, parent, title, kind.
    public let info: StepInfo
    /// How deep it is nested under groups, sequences and background steps (0 at the top).
    public let depth: Int
    /// Where it stands now.
    public var status: StepStatus = .running
    /// When its apply started, since the dashboard started.
    public let startedAt: Duration
    /// When its apply ended; the duration shown stays the apply's during a rollback.
    public var endedAt: Duration?
    /// Its last reported progress (0...1) while running.
    public var progress: Double?

    /// How long its apply ran (or has been running, at `now`).
    public func duration(at now: Duration) -> Duration {
        (endedAt ?? now) - startedAt
    }
}
