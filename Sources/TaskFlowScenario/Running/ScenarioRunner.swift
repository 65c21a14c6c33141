import TaskFlow

/// Runs a ``Scenario`` on a real ``TaskFlowManager``: submits each flow at its start time (and
/// again every `every`, `times` times), plays its steps with their durations scaled by
/// ``RunOptions/speed``, and injects failures from the seed. Flows due at the same time are
/// submitted in file order, so every run of a scenario numbers its flows the same way. At most
/// ``outstandingFlowLimit`` flows are submitted and unfinished at once: a submission due while
/// that many are outstanding waits for one to finish (see ``SubmissionWindow``).
///
/// ```swift
/// let runner = ScenarioRunner(scenario: try Scenario.load(contentsOf: url), options: RunOptions(speed: 4))
/// let events = runner.manager.events   // subscribe before starting: no event is missed
/// let run = runner.start()
/// for outcome in await run.finished() { print(outcome.flow.title, outcome.status) }
/// ```
package struct ScenarioRunner: Sendable {
    /// The scenario.
    package let scenario: Scenario
    /// Speed and seed.
    package let options: RunOptions
    /// The manager the flows run on, created empty for this runner.
    package let manager: TaskFlowManager<ScenarioState>
    /// The scenario's job queues and jobs: the queues exist (empty) from here on, so their
    /// events can be observed before ``start(retaining:)`` adds the first job.
    package let jobs: ScenarioJobs
    private let pacer: Pacer
    /// The most flows this runner keeps submitted and unfinished: ``outstandingFlowLimit``.
    let outstandingLimit: Int

    /// The most flows a run keeps submitted and not finished at once. Far above what a demo
    /// has in flight (the stress demo peaks at a few hundred), far below what takes memory
    /// that matters (a queued flow costs a few kilobytes).
    package static let outstandingFlowLimit = 1_000

    /// A runner for `scenario`. `clock` is what simulated time is awaited on.
    package init(scenario: Scenario, options: RunOptions = RunOptions(), clock: any ScenarioClock = ContinuousScenarioClock()) {
        self.init(scenario: scenario, options: options, clock: clock, outstandingLimit: Self.outstandingFlowLimit)
    }

    /// A runner whose runs keep at most `outstandingLimit` flows unfinished (tests use a few).
    init(scenario: Scenario, options: RunOptions, clock: any ScenarioClock, outstandingLimit: Int) {
        self.scenario = scenario
        self.options = options
        self.outstandingLimit = outstandingLimit
        manager = TaskFlowManager(state: ScenarioState())
        let pacer = Pacer(clock: clock, speed: options.speed)
        self.pacer = pacer
        jobs = ScenarioJobs(scenario: scenario, pacer: pacer, dice: FailureDice(seed: options.seed ?? scenario.seed))
    }

    /// The seed `fail_chance` draws from: the options' if set, else the scenario's.
    package var seed: UInt64 { options.seed ?? scenario.seed }

    /// Starts the scenario and returns at once; flows are submitted and jobs added as their
    /// start times come. Each call starts the whole scenario again on the same manager and
    /// queues. `retaining` decides what
    /// the run remembers of its flows (all of them by default).
    package func start(retaining retention: JournalRetention = .everything) -> ScenarioRun {
        let journal = RunJournal(retention: retention)
        let (launches, continuation) = AsyncStream.makeStream(of: ScenarioFlow.self)
        let launcher = Task { [self] in
            // Discarding: a `cancel_after` timer, and the task that waits for a flow's end, is
            // dropped as soon as it ends, so only those of flows still running are held,
            // however many submissions there are.
            await withDiscardingTaskGroup { timers in
                async let jobsAdded: Void = jobs.addAll()
                await submitAll(journal: journal, continuation: continuation, timers: &timers)
                await journal.endStartSubmissions()
                // The launches end once every flow was submitted and every job added.
                await jobsAdded
                await journal.endLaunches()
                continuation.finish()
            }
        }
        return ScenarioRun(manager: manager, jobs: jobs, journal: journal, launches: launches, launcher: launcher)
    }

    /// Submits every submission of the scenario from this one task, in ``SubmissionSchedule``
    /// order, sleeping from one start time to the next: memory does not grow with `times`, and
    /// the manager numbers the flows the same way on every run. Returns early when the run is
    /// stopped. Sleeping the gaps rather than each start from the beginning adds the (tiny)
    /// cost of each submission to the later ones, and so does waiting for the window to admit
    /// one; the clock offers no "now" to correct it by.
    private func submitAll(
        journal: RunJournal, continuation: AsyncStream<ScenarioFlow>.Continuation, timers: inout DiscardingTaskGroup
    ) async {
        var window = SubmissionWindow(limit: outstandingLimit)
        var now = Duration.zero
        for next in SubmissionSchedule(scenario.flows) {
            if now == .zero, next.start > .zero { await journal.endStartSubmissions() }
            // A zero gap does not sleep, so it would not notice a stop by itself.
            guard !Task.isCancelled, (try? await pacer.wait(next.start - now)) != nil, await window.admit() else { return }
            now = next.start
            let spec = scenario.flows[next.flowIndex]
            let flow = submit(spec, index: next.flowIndex, submission: next.submission, journal: journal)
            await journal.record(flow)
            continuation.yield(flow)
            if let delay = spec.cancelAfter {
                timers.addTask { await cancel(flow.handle, after: delay) }
            }
            // The window's report of this flow's end. At most the window's limit of these wait at
            // once, so the task group stays small (its children are unlinked from a list); the
            // journal drops finished flows by itself, in sweeps.
            timers.addTask { [finishes = window.finishes] in
                await flow.handle.finished()
                finishes.yield()
            }
        }
    }

    /// Submits one submission of `spec` to the manager.
    private func submit(_ spec: FlowSpec, index: Int, submission: Int, journal: RunJournal) -> ScenarioFlow {
        let player = StepPlayer(pacer: pacer, dice: FailureDice(seed: seed), submission: "\(index)/\(submission)")
        let steps = spec.steps
        let handle = manager.execute(title: title(of: spec, submission: submission), access: spec.access) { flow in
            if flow.access == .read, journal.retention == .everything {
                await journal.recordSnapshot(flow.state, of: flow.id)
            }
            try await player.play(steps, in: flow)
        }
        return ScenarioFlow(handle: handle, flowIndex: index, submission: submission)
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
