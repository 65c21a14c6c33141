import TaskFlow

/// Everything the dashboard knows about one flow, built from its events.
package struct FlowRow: Sendable, Hashable {
    /// Identity, title and access.
    package let info: FlowInfo
    /// Its status.
    package var phase: FlowPhase = .queued
    /// Why it failed, or which reverts failed; nil unless it is failed or rollback incomplete.
    package var failureMessage: String?
    /// Its steps in start order; ``StepNode/depth`` gives the tree shape.
    package private(set) var steps: [StepNode] = []
    /// The step that started last and has not finished, if any.
    package var currentStep: StepID?
    /// When it was submitted, since the dashboard started (before it, negative: a flow adopted
    /// from a snapshot of a program that was running already).
    package private(set) var queuedAt: Duration
    /// When it reached a final state.
    package var finishedAt: Duration?
    /// True once the engine released its undo log (it left the undo history).
    package var undoExpired = false
    /// A retried step waiting for its next attempt; cleared when the next step starts.
    package var pendingRetry: PendingRetry?
    /// When the earliest of its running steps started; nil while none runs. A step silent for
    /// longer than a limit started before `now - limit`: the stalled-step warning reads the
    /// steps of no other flow (it checks every flow at every frame).
    package private(set) var oldestRunningStart: Duration?

    /// Whether `u` can undo it: a completed write flow still in the undo history.
    package var canUndo: Bool { info.access == .write && phase == .completed && !undoExpired }

    /// A new row for a flow just submitted at `time`.
    package init(info: FlowInfo, queuedAt time: Duration) {
        self.info = info
        queuedAt = time
    }

    /// The step with this identity, if it started.
    package func step(_ id: StepID) -> StepNode? {
        index(of: id).map { steps[$0] }
    }

    /// The current step's title and progress, for the flow list.
    package var current: StepNode? { currentStep.flatMap(step) }

    /// Time since submission, frozen once finished.
    package func elapsed(at now: Duration) -> Duration {
        (finishedAt ?? now) - queuedAt
    }

    /// Takes the times `snapshot` tells — its submission, its steps' starts and ends — placed
    /// on the dashboard's clock, whose zero is the instant `origin`: a flow adopted from a
    /// snapshot then shows how long it has been under way, not how long since the dashboard
    /// heard of it. Times the snapshot does not tell (an older program's) stay as they are.
    mutating func place(_ snapshot: FlowSnapshot, origin: ContinuousClock.Instant) {
        if let submitted = snapshot.submitted { queuedAt = submitted - origin }
        for step in snapshot.steps {
            guard let index = index(of: step.info.id) else { continue }
            if let started = step.started { steps[index].startedAt = started - origin }
            if let ended = step.ended, steps[index].endedAt != nil { steps[index].endedAt = ended - origin }
        }
        oldestRunningStart = steps.lazy.filter { $0.status == .running }.map(\.startedAt).min()
    }

    /// Adds a step that started, nested under its parent, among its siblings in id order: the
    /// order a group lists its children (the engine numbers them so), whichever starts first.
    mutating func start(_ info: StepInfo, at time: Duration) {
        // Once: a step adopted from a snapshot taken just after it started is announced again
        // by its own event (retries run as new steps, with new ids).
        guard index(of: info.id) == nil else { return }
        let depth = info.parent.flatMap(step).map { $0.depth + 1 } ?? 0
        steps.insert(StepNode(info: info, depth: depth, startedAt: time), at: position(of: info, depth: depth))
        currentStep = info.id
        pendingRetry = nil
        oldestRunningStart = min(oldestRunningStart ?? time, time)
    }

    /// Where a new step goes: inside its parent's subtree (the tree reads top-down even when a
    /// group's children interleave), before the first sibling with a higher id.
    private func position(of info: StepInfo, depth: Int) -> Int {
        var index = info.parent.flatMap(self.index(of:)).map { $0 + 1 } ?? 0
        while index < steps.endIndex, steps[index].depth >= depth {
            if steps[index].depth == depth, steps[index].info.id > info.id { break }
            index += 1
        }
        return index
    }

    /// Changes one step in place; does nothing for a step the dashboard never saw start.
    mutating func updateStep(_ id: StepID, _ change: (inout StepNode) -> Void) {
        guard let index = index(of: id) else { return }
        let wasRunning = steps[index].status == .running
        change(&steps[index])
        if wasRunning != (steps[index].status == .running) {
            oldestRunningStart = steps.lazy.filter { $0.status == .running }.map(\.startedAt).min()
        }
    }

    private func index(of id: StepID) -> Int? {
        steps.firstIndex { $0.info.id == id }
    }
}

/// A flow step between two attempts: which attempt comes next, and when on the dashboard's clock.
package struct PendingRetry: Sendable, Hashable {
    /// What the engine reported.
    package let retry: StepRetry
    /// When the next attempt starts, on the dashboard's clock.
    package let nextAt: Duration

    /// "Upload: attempt 2/3 in 400ms" at `now`.
    package func text(at now: Duration) -> String {
        "\(retry.title): attempt \(retry.nextAttempt)/\(retry.maxAttempts) in \(max(nextAt - now, .zero).delayText)"
    }
}
