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
    /// Every step the flow started, in start order, with its status and progress: the whole
    /// tree (each step names its ``StepInfo/parent``), as the step events built it so far.
    public let steps: [StepSnapshot]
    /// When it was submitted, so that an observer that comes later shows how long it has been
    /// under way. The engine's snapshots always tell; nil in one made without it (an older
    /// program's, over the console).
    public let submitted: ContinuousClock.Instant?

    /// Describes one live flow.
    public init(
        info: FlowInfo, status: FlowStatus, currentStep: StepInfo?, progress: Double?, steps: [StepSnapshot] = [],
        submitted: ContinuousClock.Instant? = nil
    ) {
        self.info = info
        self.status = status
        self.currentStep = currentStep
        self.progress = progress
        self.steps = steps
        self.submitted = submitted
    }
}

/// Everything a late observer needs to draw the present before it follows ``TaskFlowManager/events``.
public struct ManagerSnapshot: Sendable {
    /// Flows the manager is running, by submission order: from submission until their final
    /// status (a flow may show `completed` for the instant before it leaves). Undos in progress
    /// are not listed here; they show in ``lock`` while they wait for or hold the write lock.
    public let flows: [FlowSnapshot]
    /// The lock's holders and queue.
    public let lock: LockSnapshot
    /// Completed write flows that can still be undone, oldest first. A flow joins it as it
    /// leaves ``flows``, an instant before it releases the write lock: ``lock`` may show it as
    /// the holder still.
    public let undoable: [FlowInfo]

    /// Describes a manager at one moment.
    public init(flows: [FlowSnapshot], lock: LockSnapshot, undoable: [FlowInfo]) {
        self.flows = flows
        self.lock = lock
        self.undoable = undoable
    }
}
