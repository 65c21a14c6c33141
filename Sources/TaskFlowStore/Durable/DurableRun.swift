import Foundation
import TaskFlow
import TaskFlowSupport

/// One durable flow's side of the journal, kept beside the flow (its `FlowAttachment`): its
/// row, opened by its first journaled step; the numbering of its steps; and its end, recorded
/// before the engine announces it.
final class DurableRun: FlowAttachment {
    /// What the flow on the manager is for.
    enum Purpose: Sendable {
        /// A flow of the program (``DurableFlows/execute(title:access:body:)``).
        case flow
        /// The rollback of a flow a dead process left, or of one whose rollback a person retries.
        case recovery
        /// The undo of a completed flow after a restart.
        case undo
    }

    private struct Progress {
        /// The flow's id in the journal: its own id, learnt at its first journaled step, or the
        /// journaled flow a recovery or undo rolls back.
        var id: Int64?
        var steps = 0
        /// Whether the journal's row shows a rollback under way.
        var rollingBack = false
        /// Whether it counts for the heartbeat.
        var active = false
    }

    let journal: FlowJournal
    let purpose: Purpose
    let title: String
    private let progress: Protected<Progress>

    /// A program's new flow: no row until its first journaled step.
    init(journal: FlowJournal, title: String) {
        self.journal = journal
        self.title = title
        purpose = .flow
        progress = Protected(Progress())
    }

    /// The rollback of journaled flow `flow`, which ``FlowJournalBackend/takeOver(_:owner:now:)``
    /// moved to rolling back under this process.
    init(journal: FlowJournal, rollingBack flow: JournalFlow, purpose: Purpose) {
        self.journal = journal
        self.title = flow.row.title
        self.purpose = purpose
        progress = Protected(Progress(id: flow.row.id, steps: flow.steps.map(\.step).max() ?? 0, rollingBack: true))
        activate()
    }

    /// Write-ahead: journals a step of flow `flowID` with `revert` (nil: made from its result
    /// later) before it runs; returns the step's number.
    func append(step title: String, of flowID: FlowID, revert: JournalStep.Revert?) async throws -> Int {
        let (id, number, opening) = progress.withLock { progress in
            progress.steps += 1
            return (progress.id ?? Int64(flowID.rawValue), progress.steps, progress.id == nil)
        }
        let row = opening ? JournalFlowOpening(id: id, title: self.title, owner: journal.owner.encoded, now: journal.clock.date) : nil
        try await journal.backend.append(JournalStep(flow: id, step: number, title: title, revert: revert), opening: row)
        // Group children may each have opened it: the first to get here counts it.
        if opening, progress.withLock({ progress in defer { progress.id = id }; return progress.id == nil }) { activate() }
        return number
    }

    /// Records the revert step `number` made from its result.
    func setRevert(step number: Int, _ revert: JournalStep.Revert) async throws {
        guard let id = progress.withLock({ $0.id }) else { return }
        try await journal.backend.setRevert(flow: id, step: number, revert, heartbeat: journal.clock.date)
    }

    /// Runs step `number`'s revert (none recorded: nothing to run) and checkpoints it, so that
    /// it never runs again; a revert that gives up is recorded as failed, and throws.
    func revert(step number: Int, _ revert: JournalStep.Revert?) async throws {
        guard let id = await beginRollback() else { return }
        if let revert {
            do {
                try await journal.run(revert)
            } catch {
                try? await journal.backend.checkpoint(flow: id, step: number, failure: String(describing: error))
                throw error
            }
        }
        try await journal.backend.checkpoint(flow: id, step: number, failure: nil)
    }

    /// Records that step `number`'s revert cannot run here, and why (see ``RollbackPlan``).
    func refuse(step number: Int, reason: String) async {
        guard let id = progress.withLock({ $0.id }) else { return }
        try? await journal.backend.checkpoint(flow: id, step: number, failure: reason)
    }

    /// The journal shows the rollback (or undo) before its first revert runs: from then on a
    /// crash leaves the flow to recovery, even a flow that had completed.
    private func beginRollback() async -> Int64? {
        let (id, first) = progress.withLock { progress in
            defer { progress.rollingBack = true }
            return (progress.id, !progress.rollingBack)
        }
        guard let id else { return nil }
        if first {
            activate()
            _ = try? await journal.backend.setState(
                flow: id, to: .rollingBack, from: [.running, .completed], reason: nil, now: journal.clock.date,
                keepingFinished: journal.keepingFinished)
        }
        return id
    }

    // MARK: - FlowAttachment

    func completing() async throws {
        guard let id = progress.withLock({ $0.id }) else { return }
        let completed = try await journal.backend.setState(
            flow: id, to: .completed, from: [.running], reason: nil, now: journal.clock.date,
            keepingFinished: journal.keepingFinished)
        // Another process took the flow over (this one was silent past its lease): it is being
        // rolled back there, so it must not complete here; its reverts are idempotent.
        guard completed else { throw DurableFlowError.takenOver(FlowID(Int(id))) }
        deactivate()
    }

    func ending(_ status: FlowStatus) async {
        guard let id = progress.withLock({ $0.id }) else { return }
        let (state, reason) = outcome(of: status)
        // A failed write leaves the flow rolling back, its reverts checkpointed: a later
        // recovery finds nothing left to run and records the end.
        _ = try? await journal.backend.setState(
            flow: id, to: state, from: [.running, .rollingBack, .completed], reason: reason, now: journal.clock.date,
            keepingFinished: journal.keepingFinished)
        progress.withLock { $0.rollingBack = false }
        deactivate()
    }

    /// What the journal records for the engine's final `status`.
    private func outcome(of status: FlowStatus) -> (DurableFlowState, String?) {
        switch status {
        case .rollbackIncomplete(_, let failures):
            (.rollbackIncomplete, failures.map { "\($0.step.title): \($0.error)" }.joined(separator: "; "))
        case .undone: (.undone, nil)
        default: (purpose == .undo ? .undone : .rolledBack, nil)
        }
    }

    private func activate() {
        if progress.withLock({ progress in defer { progress.active = true }; return !progress.active }) { journal.flowActive() }
    }

    private func deactivate() {
        if progress.withLock({ progress in defer { progress.active = false }; return progress.active }) { journal.flowInactive() }
    }
}
