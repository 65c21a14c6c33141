import TaskFlow

/// Runs a ``Scenario`` on a real ``TaskFlowManager``: submits each flow at its start time (and
/// again every `every`, `times` times), plays its steps with their durations scaled by
/// ``RunOptions/speed``, and injects failures from the seed.
///
/// ```swift
/// let runner = ScenarioRunner(scenario: try Scenario.load(contentsOf: url), options: RunOptions(speed: 4))
/// let events = runner.manager.events   // subscribe before starting: no event is missed
/// let run = runner.start()
/// for outcome in await run.finished() { print(outcome.flow.title, outcome.status) }
/// ```
public struct ScenarioRunner: Sendable {
    /// The scenario.
    public let scenario: Scenario
    /// Speed and seed.
    public let options: RunOptions
    /// The manager the flows run on, created empty for this runner.
    public let manager: TaskFlowManager<ScenarioState>
    private let pacer: Pacer

    /// A runner for `scenario`. `clock` is what simulated time is awaited on.
    public init(scenario: Scenario, options: RunOptions = RunOptions(), clock: any ScenarioClock = ContinuousScenarioClock()) {
        self.scenario = scenario
        self.options = options
        manager = TaskFlowManager(state: ScenarioState())
        pacer = Pacer(clock: clock, speed: options.speed)
    }

    /// The seed `fail_chance` draws from: the options' if set, else the scenario's.
    public var seed: UInt64 { options.seed ?? scenario.seed }

    /// Starts the scenario and returns at once; flows are submitted as their start times come.
    /// Each call starts the whole scenario again on the same manager.
    public func start() -> ScenarioRun {
        let journal = RunJournal()
        let (launches, continuation) = AsyncStream.makeStream(of: ScenarioFlow.self)
        let launcher = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                for (index, flow) in scenario.flows.enumerated() {
                    for submission in 0..<flow.submissions {
                        group.addTask {
                            await launch(flow, index: index, submission: submission, journal: journal, continuation: continuation)
                        }
                    }
                }
            }
            await journal.endLaunches()
            continuation.finish()
        }
        return ScenarioRun(manager: manager, journal: journal, launches: launches, launcher: launcher)
    }

    /// Waits for the submission's start time, submits it, and cancels it after `cancel_after`
    /// unless it ended first. Returns early, submitting nothing, when the run is stopped.
    private func launch(
        _ spec: FlowSpec, index: Int, submission: Int, journal: RunJournal,
        continuation: AsyncStream<ScenarioFlow>.Continuation
    ) async {
        guard (try? await pacer.wait(spec.startOfSubmission(submission))) != nil else { return }
        let player = StepPlayer(pacer: pacer, dice: FailureDice(seed: seed), submission: "\(index)/\(submission)")
        let steps = spec.steps
        let handle = manager.execute(title: title(of: spec, submission: submission), access: spec.access) { flow in
            if flow.access == .read { await journal.recordSnapshot(flow.state, of: flow.id) }
            try await player.play(steps, in: flow)
        }
        let flow = ScenarioFlow(handle: handle, flowIndex: index, submission: submission)
        await journal.record(flow)
        continuation.yield(flow)
        if let delay = spec.cancelAfter { await cancel(handle, after: delay) }
    }

    /// Cancels `handle` once `delay` has passed, unless it finished before.
    private func cancel(_ handle: TaskFlow<Void>, after delay: Duration) async {
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await handle.finished() }
            race.addTask {
                // A cancelled wait (the flow ended first, or the run was stopped) cancels nothing.
                guard (try? await pacer.wait(delay)) != nil else { return }
                handle.cancel()
            }
            await race.next()
            race.cancelAll()
        }
    }

    private func title(of spec: FlowSpec, submission: Int) -> String {
        spec.submissions == 1 ? spec.title : "\(spec.title) (\(submission + 1)/\(spec.submissions))"
    }
}
