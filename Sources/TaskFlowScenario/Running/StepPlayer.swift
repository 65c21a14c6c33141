import TaskFlow

/// Plays one submission's steps on the engine: each ``StepSpec`` becomes the engine call of its
/// kind, with its simulated duration awaited on the ``Pacer`` (never blocking a thread, never
/// holding the main actor), progress reported as it goes, and failures injected where the
/// ``FailureDice`` says. Every step gets an address (its index path under the submission) that
/// the dice use, so where a step fails depends on the seed alone.
struct StepPlayer: Sendable {
    typealias Context = TaskContext<ScenarioState>

    let pacer: Pacer
    let dice: FailureDice
    /// Identifies the submission: "flow index/submission index".
    let submission: String

    /// How many times a task reports progress over its duration (and checks for a cancel).
    static let ticks = 10

    func play(_ steps: [StepSpec], in flow: FlowContext<ScenarioState>) async throws {
        for (index, step) in steps.enumerated() {
            try await play(step, at: "\(index)", in: flow)
        }
    }

    private func play(_ step: StepSpec, at address: String, in flow: FlowContext<ScenarioState>) async throws {
        switch step.kind {
        case .main(let work):
            try await playMain(step.title, work, at: address, on: flow)
        case .task(let work, let foreground):
            try await flow.task(
                title: step.title, apply: taskApply(step.title, work, foreground, at: address), revert: taskRevert(work))
        case .group, .sequence:
            try await flow.perform(composite(step, at: address))
        case .update(let change):
            try await flow.update(title: step.title) { $0.apply(change) }
        }
    }

    // MARK: - Foreground steps

    /// Waits up to the failure point (or half the duration) off the main actor, runs the
    /// instant main-actor part, then waits the rest: the step takes its time without ever
    /// blocking the main actor.
    private func playMain(_ title: String, _ work: StepWork, at address: String, on host: some StepContext<ScenarioState>) async throws {
        let failAt = dice.failurePoint(of: work.failure, at: key(address))
        let before = work.duration * (failAt ?? 0.5)
        try await pacer.wait(before)
        let apply = mainApply(title, failingAt: failAt)
        if work.revert != nil {
            try await host.main(title: title, apply: apply, revert: Self.mainRevert)
        } else {
            try await host.main(title: title, query: apply)
        }
        try await pacer.wait(work.duration - before)
    }

    /// A main step's revert: instant, as main-actor work must be; the engine's events show it.
    private static let mainRevert: @MainActor @Sendable (()) throws -> Void = { _ in }

    private func mainApply(_ title: String, failingAt failAt: Double?) -> @MainActor @Sendable () throws -> Void {
        {
            if let failAt { throw InjectedFailure(step: title, fraction: failAt) }
        }
    }

    // MARK: - Background steps

    /// Walks the task's timeline: progress ticks and foreground sub-steps spread evenly over
    /// its duration, a cancel check at each, and the injected failure where it falls.
    private func taskApply(
        _ title: String, _ work: StepWork, _ foreground: [StepSpec], at address: String
    ) -> @Sendable (Context) async throws -> Void {
        let failAt = dice.failurePoint(of: work.failure, at: key(address))
        return { context in
            if work.reportsProgress { context.progress(0) }
            var elapsed = 0.0
            for mark in TaskTimeline.marks(ticks: Self.ticks, foreground: foreground.count) where mark.fraction <= failAt ?? 1 {
                try await pacer.wait(work.duration * (mark.fraction - elapsed))
                elapsed = mark.fraction
                if context.isCancelled { throw CancellationError() }
                try await perform(mark, of: work, foreground, at: address, in: context)
            }
            if let failAt {
                try await pacer.wait(work.duration * (failAt - elapsed))
                throw InjectedFailure(step: title, fraction: failAt)
            }
        }
    }

    private func perform(
        _ mark: TaskTimeline.Mark, of work: StepWork, _ foreground: [StepSpec], at address: String, in context: Context
    ) async throws {
        switch mark.event {
        case .tick:
            if work.reportsProgress { context.progress(mark.fraction) }
        case .foreground(let index):
            let step = foreground[index]
            guard case .main(let subWork) = step.kind else {
                throw MisplacedStep(step: step.title, reason: "only main steps run inside a task")
            }
            try await playMain(step.title, subWork, at: "\(address).\(index)", on: context)
        }
    }

    /// Waits the revert duration; nil when the step registers no revert.
    private func taskRevert(_ work: StepWork) -> (@Sendable (Context, Void) async throws -> Void)? {
        guard let duration = work.revert else { return nil }
        return { _, _ in try await pacer.wait(duration) }
    }

    // MARK: - Groups and sequences

    private func composite(_ step: StepSpec, at address: String) -> CompositeStep<ScenarioState> {
        let build: (CompositeBuilder<ScenarioState>) -> Void = { builder in
            for (index, child) in step.children.enumerated() {
                add(child, at: "\(address).\(index)", to: builder)
            }
        }
        if case .group = step.kind { return .group(title: step.title, build) }
        return .sequence(title: step.title, build)
    }

    /// Adds `step` to a composite. Inside one, a main step has no background side to wait on,
    /// so it runs at once (validation rejects a duration there).
    private func add(_ step: StepSpec, at address: String, to builder: CompositeBuilder<ScenarioState>) {
        switch step.kind {
        case .main(let work):
            let failAt = dice.failurePoint(of: work.failure, at: key(address))
            let revert = work.revert == nil ? nil : Self.mainRevert
            builder.main(title: step.title, apply: mainApply(step.title, failingAt: failAt), revert: revert)
        case .task(let work, let foreground):
            builder.task(title: step.title, apply: taskApply(step.title, work, foreground, at: address), revert: taskRevert(work))
        case .group, .sequence:
            builder.add(composite(step, at: address))
        case .update:
            // Only reachable for scenarios built in code: the step fails when its turn comes.
            builder.task(title: step.title) { _ in
                throw MisplacedStep(step: step.title, reason: "the engine updates state only at a flow's top level")
            }
        }
    }

    private func key(_ address: String) -> String { "\(submission)/\(address)" }
}
