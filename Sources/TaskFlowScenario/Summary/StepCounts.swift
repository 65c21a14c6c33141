/// How many steps of each kind a scenario declares (foreground sub-steps of tasks count as
/// `main`; repetitions do not multiply them).
package struct StepCounts: Sendable, Equatable {
    /// Foreground steps, including tasks' sub-steps.
    package var main = 0
    /// Background steps.
    package var task = 0
    /// Parallel composites.
    package var group = 0
    /// Serial composites.
    package var sequence = 0
    /// State changes.
    package var update = 0

    /// Counts given by kind.
    package init(main: Int = 0, task: Int = 0, group: Int = 0, sequence: Int = 0, update: Int = 0) {
        self.main = main
        self.task = task
        self.group = group
        self.sequence = sequence
        self.update = update
    }

    /// Counts `steps` and everything inside them.
    init(_ steps: [StepSpec]) {
        for step in steps { add(step) }
    }

    /// All steps of all kinds.
    package var total: Int { main + task + group + sequence + update }

    private mutating func add(_ step: StepSpec) {
        switch step.kind {
        case .main: main += 1
        case .task: task += 1
        case .group: group += 1
        case .sequence: sequence += 1
        case .update: update += 1
        }
        for child in step.children { add(child) }
    }
}
