import TaskFlow

/// Numbers over time for flows, built from the engine's events on the dashboard's clock (never
/// the wall clock, so a test or a replay gives the same numbers): how long runs of each flow
/// title and each step title took, and how many flows completed and failed in each of the
/// last 60 seconds. (How long flows waited for the lock is the lock's: ``LockBoard/waits``.)
///
/// Memory is bounded whatever runs: a fixed-size histogram per title, at most
/// ``TitledHistograms/capacity`` titles of each kind (the least recently updated goes first),
/// a ring of 60 counters per series, and at most ``pendingLimit`` runs timed at once.
package struct RunStatistics: Sendable, Hashable {
    /// How long runs of each flow title took, from the moment it started running (it holds the
    /// lock) to its final status: the lock wait is counted apart, in ``LockBoard/waits``. Every
    /// run that started counts, whatever its end (completed, failed, cancelled, rollback
    /// incomplete).
    package private(set) var flows = TitledHistograms()
    /// How long each step title's apply took, from its start to its end, whatever the outcome.
    package private(set) var steps = TitledHistograms()
    /// Flows that completed, per second.
    package private(set) var completions = PerSecondCounts()
    /// Flows that failed (failed, or their rollback was incomplete), per second. Cancelled flows
    /// count in neither series: a cancel is somebody's decision, not an outcome of the work.
    package private(set) var failures = PerSecondCounts()

    /// When each flow now running started running.
    private var runningSince: [FlowID: Duration] = [:]

    /// The most runs timed at once: beyond it a new one goes untimed rather than growing the
    /// memory (a flow whose end a watcher missed would otherwise stay forever).
    package static let pendingLimit = 100_000

    /// No run seen yet.
    package init() {}

    /// Takes in `event`, which happened at `time`. `flow` looks up what the board knew of a flow
    /// just before the event (its title, its steps and when they started): the statistics keep
    /// no copy of it.
    package mutating func record(_ event: FlowEvent, at time: Duration, flow: (FlowID) -> FlowRow?) {
        switch event {
        case .statusChanged(let id, let status):
            recordStatus(status.phase, of: id, at: time, title: flow(id)?.info.title)
        case .stepFinished(let id, let stepID, _):
            guard let step = flow(id)?.step(stepID) else { return }
            steps.record(time - step.startedAt, for: step.info.title)
        case .flowQueued, .lock, .stepStarted, .progress, .stepRetrying, .stepReverting, .stepReverted, .revertFailed, .undoExpired:
            break
        }
    }

    private mutating func recordStatus(_ phase: FlowPhase, of id: FlowID, at time: Duration, title: String?) {
        if phase == .running {
            if runningSince[id] == nil, runningSince.count < Self.pendingLimit { runningSince[id] = time }
            return
        }
        guard phase.isFinished else { return }
        // An undo ends a completed flow again (undone): it was not a run, and started none.
        if let start = runningSince.removeValue(forKey: id), let title {
            flows.record(time - start, for: title)
        }
        switch phase {
        case .completed: completions.record(at: time)
        case .failed, .rollbackIncomplete: failures.record(at: time)
        default: break
        }
    }

    /// True while some second of the last minute counted a flow that ended: the header's
    /// sparklines move on with the clock until the minute has passed.
    package func isRecent(at now: Duration) -> Bool {
        completions.total(endingAt: now) + failures.total(endingAt: now) > 0
    }
}
