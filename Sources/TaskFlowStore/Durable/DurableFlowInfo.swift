import Foundation
import TaskFlow

/// A journaled flow as the CLI and the dashboard show it: never a credential (stored reverts'
/// JSON and every text pass through ``JobRedaction``).
public struct DurableFlowInfo: Sendable, Equatable {
    /// Its id (the id it had in its process).
    public let id: FlowID
    public let title: String
    /// Its state; nil when the journal holds one this version does not know (``storedState``).
    public let state: DurableFlowState?
    /// The state as stored.
    public let storedState: String
    /// The process that runs it or last rolled it back, as `host:pid`.
    public let owner: String
    public let startedAt: Date
    /// Its owner's last sign of life.
    public let heartbeatAt: Date
    /// Why its rollback was left incomplete.
    public let reason: String?
    /// Its journaled steps, oldest first (empty in a list of flows).
    public let steps: [DurableStepInfo]
}

/// One journaled step of a ``DurableFlowInfo``.
public struct DurableStepInfo: Sendable, Equatable {
    /// Its place in the journal, from 1: rolled back last first.
    public let number: Int
    public let title: String
    /// Its stored revert's kind; nil when none was recorded (one made from the step's result,
    /// before the result came).
    public let kind: String?
    /// Its stored revert's JSON, redacted.
    public let revert: String?
    /// `pending`, `reverted` (checkpointed) or `failed`, as stored.
    public let state: String
    /// Why its revert last failed, or why it cannot run.
    public let lastError: String?
    /// Why its row is not what the journal writes.
    public let damage: String?
}

extension DurableFlowInfo {
    init(_ row: JournalFlowRow, steps: [JournalStepRow]) {
        id = FlowID(Int(row.id))
        title = JobRedaction.redacted(row.title)
        state = DurableFlowState(rawValue: row.state)
        storedState = JobRedaction.redacted(row.state)
        owner = LeaseOwner.processName(row.owner)
        startedAt = row.startedAt
        heartbeatAt = row.heartbeatAt
        reason = row.reason.map(JobRedaction.redacted)
        self.steps = steps.map(DurableStepInfo.init)
    }
}

extension DurableStepInfo {
    init(_ row: JournalStepRow) {
        number = row.step
        title = JobRedaction.redacted(row.title)
        kind = row.kind.map(JobRedaction.redacted)
        revert = row.payload.map { JobRedaction.redacted(payload: $0) }
        state = JobRedaction.redacted(row.state)
        lastError = row.lastError.map(JobRedaction.redacted)
        damage = row.damage
    }
}

extension JobStore {
    /// The journal's durable flows, newest first, at most `limit`, without their steps.
    public func durableFlows(limit: Int = 100) async throws -> [DurableFlowInfo] {
        try await journal.flows(limit: max(limit, 0)).map { DurableFlowInfo($0, steps: []) }
    }

    /// Durable flow `id` with its steps; nil when the journal has no such flow.
    public func durableFlow(_ id: FlowID) async throws -> DurableFlowInfo? {
        try await journal.flow(Int64(id.rawValue)).map { DurableFlowInfo($0.row, steps: $0.steps) }
    }

    /// Hands a flow whose rollback was left incomplete back to recovery: the next
    /// ``DurableFlows/recover()`` of a program with its handlers rolls it back again (what
    /// `taskflow flows retry-rollback` does; a program can retry at once with
    /// ``DurableFlows/retryRollback(_:)``). Throws ``DurableFlowError/noSuchFlow(_:needs:)``
    /// when the journal has no such flow.
    public func handBackToRecovery(_ id: FlowID) async throws {
        // Nobody's, silent since 1970: dead to every recovery.
        let taken = try await journal.takeOver(
            .flow(Int64(id.rawValue), states: [.rollbackIncomplete]), owner: "", now: Date(timeIntervalSince1970: 0))
        guard !taken.isEmpty else { throw DurableFlowError.noSuchFlow(id, needs: "rollback-incomplete") }
    }

    /// Where durable flows journal their stored reverts: the store's own database.
    var journal: any FlowJournalBackend { environment.backend }
}
