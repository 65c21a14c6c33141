import TaskFlow

extension FlowStatus {
    /// Lets tests compare statuses by name.
    public var isCompleted: Bool { name == "completed" }
}
