import TaskFlow

/// A started scenario: the flows submitted and jobs added so far, what its read flows saw, and
/// its end.
package final class ScenarioRun: Sendable {
    /// The manager the flows run on.
    package let manager: TaskFlowManager<ScenarioState>
    /// The queues the jobs run on, and the jobs added so far.
    package let jobs: ScenarioJobs
    /// Each flow as it is submitted; ends after the last submission. Meant for one consumer
    /// (a dashboard adopting handles); others can use ``flows()`` and ``flow(titled:)``.
    package let launches: AsyncStream<ScenarioFlow>
    private let journal: RunJournal
    private let launcher: Task<Void, Never>

    init(
        manager: TaskFlowManager<ScenarioState>, jobs: ScenarioJobs, journal: RunJournal,
        launches: AsyncStream<ScenarioFlow>, launcher: Task<Void, Never>
    ) {
        self.manager = manager
        self.jobs = jobs
        self.journal = journal
        self.launches = launches
        self.launcher = launcher
    }

    /// Returns once the flows due at the start (those without a `start` time) are submitted,
    /// and their handles on ``launches``; at once when the run is stopped first. For a dashboard
    /// that lists them before it acts on keys typed while they were coming.
    package func flowsDueAtStartSubmitted() async {
        await journal.startSubmissions()
    }

    /// Every flow submitted so far, in submission order (with ``JournalRetention/unfinished``,
    /// those of them not finished yet).
    package func flows() async -> [ScenarioFlow] { await journal.flows }

    /// The first flow submitted with `title` (repeated flows carry a " (2/3)" suffix), waiting
    /// until it is submitted; nil if the run ends without submitting it.
    package func flow(titled title: String) async -> ScenarioFlow? {
        await journal.flow(titled: title)
    }

    /// The state a read flow saw (its snapshot when it got the lock); nil for write flows and
    /// flows that never started.
    package func snapshot(seenBy flow: FlowID) async -> ScenarioState? {
        await journal.snapshot(of: flow)
    }

    /// Waits until every flow has been submitted and has finished, and every job was added and
    /// has ended, and returns how each flow ended, in submission order (jobs: ``jobs``).
    package func finished() async -> [FlowOutcome] {
        await launcher.value
        await jobs.finished()
        var outcomes: [FlowOutcome] = []
        for flow in await journal.flows {
            outcomes.append(FlowOutcome(flow: flow, status: await flow.handle.finished()))
        }
        // A journal of the unfinished flows still lists those that were running: awaited above,
        // they are finished now, and such a run reports no outcomes.
        return journal.retention == .everything ? outcomes : []
    }

    /// Stops the run: no further submissions, every submitted flow is cancelled (and rolls
    /// back) and every job is cancelled. Returns once nothing more will be submitted or added
    /// and the submitted flows have ended; ``finished()`` then reports the end.
    package func stop() async {
        launcher.cancel()
        await cancelSubmitted()
        await launcher.value
        // A submission may have slipped in between the first pass and the launcher's end.
        await cancelSubmitted()
    }

    private func cancelSubmitted() async {
        for flow in await journal.flows { flow.handle.cancel() }
        jobs.cancelAll()
    }
}
