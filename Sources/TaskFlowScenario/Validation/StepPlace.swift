import TaskFlow

/// Where a step is written, which decides what it may be and which keys it may have.
struct StepPlace {
    /// The container the step sits in.
    enum Container {
        /// A flow's `[[flow.step]]` list.
        case flow
        /// A group's or sequence's `steps`.
        case composite
        /// A task's `steps`: its foreground sub-steps.
        case task
    }

    let container: Container
    let access: FlowAccess
}
