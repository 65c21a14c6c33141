/// One step of a flow, as written in the scenario: a title and what kind of work it is.
package struct StepSpec: Sendable, Equatable {
    /// What the step does; each case matches one of the engine's step kinds.
    package indirect enum Kind: Sendable, Equatable {
        /// A synchronous foreground step on the main actor. Its duration is waited off the main
        /// actor, half before and half after, so the main actor is never blocked.
        case main(StepWork)
        /// A background step that takes its duration, reports progress and may run foreground
        /// sub-steps (always `main` steps), spread evenly over its duration.
        case task(StepWork, foreground: [StepSpec])
        /// Children run in parallel.
        case group([StepSpec])
        /// Children run one after another.
        case sequence([StepSpec])
        /// A change of the manager's state, reverted by restoring the previous value.
        case update(StateChange)
    }

    /// Shown in the dashboard and the event log.
    package var title: String
    /// What the step does.
    package var kind: Kind

    /// Creates a step.
    package init(title: String, kind: Kind) {
        self.title = title
        self.kind = kind
    }

    /// The steps directly inside this one: a composite's children or a task's foreground steps.
    package var children: [StepSpec] {
        switch kind {
        case .main, .update: []
        case .task(_, let foreground): foreground
        case .group(let children), .sequence(let children): children
        }
    }
}
