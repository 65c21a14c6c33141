/// One live flow at the moment of a snapshot.
public struct FlowSnapshot: Sendable {
    /// Identity, title and access.
    public let info: FlowInfo
    /// Its status.
    public let status: FlowStatus
    /// The step that started most recently, if any.
    public let currentStep: StepInfo?
    /// That step's last published progress, if it reported any.
    public let progress: Double?
}

/// Everything a late observer needs to draw the present before it follows ``TaskFlowManager/events``.
public struct ManagerSnapshot: Sendable {
    /// Flows that are not finished, by submission order.
    public let flows: [FlowSnapshot]
    /// The lock's holders and queue.
    public let lock: LockSnapshot
    /// Completed write flows that can still be undone, oldest first.
    public let undoable: [FlowInfo]
}
