import DashboardKit
import TaskFlow
import TaskFlowScenario

/// A scenario file playing on the dashboard: the runner submits flows at their start times and
/// the dashboard adopts each one as it comes; quitting stops further submissions.
@MainActor
final class ScenarioFeed: FlowSource {
    nonisolated let name: String
    nonisolated let jobQueues: (any JobQueueSource)?
    private nonisolated let runner: ScenarioRunner
    private var run: ScenarioRun?

    nonisolated init(_ scenario: Scenario, options: RunOptions) {
        name = scenario.name
        let runner = ScenarioRunner(scenario: scenario, options: options)
        self.runner = runner
        jobQueues = scenario.queues.isEmpty ? nil : ScenarioQueueSource(jobs: runner.jobs, specs: scenario.queues)
    }

    nonisolated func events() -> AsyncStream<TimedFlowEvent> { runner.manager.timedEvents }

    nonisolated func snapshot() -> ManagerSnapshot { runner.manager.snapshot() }

    func start() -> AsyncStream<FlowHandle> {
        // The dashboard may play for days: the run keeps only what `stop()` needs.
        let run = runner.start(retaining: .unfinished)
        self.run = run
        return AsyncStream { continuation in
            let relay = Task {
                for await flow in run.launches { continuation.yield(FlowHandle(flow.handle)) }
                // A headless run ends once its jobs have ended too.
                await run.jobs.finished()
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    func flowsDueAtStartSubmitted() async {
        await run?.flowsDueAtStartSubmitted()
    }

    func stopSubmitting() {
        guard let run else { return }
        Task { await run.stop() }
    }
}
