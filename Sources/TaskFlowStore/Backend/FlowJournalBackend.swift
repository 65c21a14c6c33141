import Foundation

/// Where durable flows journal their stored reverts: the job store's database (SQLite or
/// PostgreSQL), beside its jobs. `package`, like ``JobStoreBackend``, so that the PostgreSQL
/// module implements it without it becoming public API.
///
/// Every method is one transaction. A flow's row is keyed by its ``TaskFlow/FlowID`` (ids are
/// handed out in blocks per process, ``reserveFlowIDs(count:)``, so that one id names one flow
/// in the whole journal); its steps by their position in the order they were journaled.
package protocol FlowJournalBackend: Sendable {
    /// Reserves `count` consecutive flow ids no other caller got and no journaled flow has;
    /// returns the first.
    func reserveFlowIDs(count: Int) async throws -> Int64

    /// Write-ahead: records `step` (its revert, or none yet when ``JournalStep/revert`` is nil)
    /// and, with `flow` (the flow's first journaled step), the flow's row first. Throws
    /// ``DurableFlowError/flowIDTaken(_:)`` when another flow holds that id.
    func append(_ step: JournalStep, opening flow: JournalFlowOpening?) async throws

    /// Records the revert of a step that journaled none before it ran (made from its result).
    func setRevert(flow: Int64, step: Int, _ revert: JournalStep.Revert, heartbeat now: Date) async throws

    /// A step's revert returned (`failure` nil: it is checkpointed and never runs again) or
    /// gave up (`failure`: the reason, shown; it stays due).
    func checkpoint(flow: Int64, step: Int, failure: String?) async throws

    /// Moves flow `id` to `state` (with `reason`, shown for a rollback left incomplete) if its
    /// state is one of `from`; returns whether it did. Moving to a finished state deletes all
    /// but the newest `keepingFinished` completed flows, and all but the newest `keepingFinished`
    /// rolled back or undone ones (counted apart, so that rollbacks never push out a completed
    /// flow): the journal keeps what undo may still need, and not much more.
    func setState(
        flow id: Int64, to state: DurableFlowState, from: Set<DurableFlowState>, reason: String?, now: Date,
        keepingFinished: Int
    ) async throws -> Bool

    /// Renews the heartbeat of every unfinished flow `owner` holds: proof of life for a
    /// process another host cannot ask the kernel about.
    func heartbeat(owner: String, now: Date) async throws

    /// Takes over, for a rollback by `owner`, the flows that `selection` picks: each moves to
    /// ``DurableFlowState/rollingBack`` under `owner` — only if nobody changed it since it was
    /// read — and is returned with its steps, oldest first.
    func takeOver(_ selection: JournalSelection, owner: String, now: Date) async throws -> [JournalFlow]

    /// The journaled flows, newest first, at most `limit`, without their steps.
    func flows(limit: Int) async throws -> [JournalFlowRow]

    /// Flow `id` with its steps, oldest first; nil when the journal has no such flow.
    func flow(_ id: Int64) async throws -> JournalFlow?
}

/// Which flows ``FlowJournalBackend/takeOver(_:owner:now:)`` takes.
package enum JournalSelection: Sendable {
    /// Every flow that was running or rolling back when its owner died: `isDead` judges an
    /// owner (its encoded lease owner) and its last heartbeat.
    case interrupted(isDead: @Sendable (_ owner: String, _ heartbeat: Date) -> Bool)
    /// Flow `id`, if its state is one of `states`.
    case flow(Int64, states: Set<DurableFlowState>)
}

/// A flow's row, written with its first journaled step.
package struct JournalFlowOpening: Sendable {
    package let id: Int64
    package let title: String
    package let owner: String
    package let now: Date

    package init(id: Int64, title: String, owner: String, now: Date) {
        self.id = id
        self.title = title
        self.owner = owner
        self.now = now
    }
}

/// One journaled step.
package struct JournalStep: Sendable {
    /// A stored revert: its registered kind and its JSON.
    package struct Revert: Sendable {
        package let kind: String
        package let payload: Data

        package init(kind: String, payload: Data) {
            self.kind = kind
            self.payload = payload
        }
    }

    package let flow: Int64
    /// Its position in the flow's journal, from 1: the rollback runs them last first.
    package let step: Int
    package let title: String
    /// Nil until a revert made from the step's result is recorded.
    package let revert: Revert?

    package init(flow: Int64, step: Int, title: String, revert: Revert?) {
        self.flow = flow
        self.step = step
        self.title = title
        self.revert = revert
    }
}

/// A flow's row as read back, its values as stored: a state this version does not know is
/// kept as text, for the reader to judge.
package struct JournalFlowRow: Sendable {
    package let id: Int64
    package let title: String
    package let state: String
    package let owner: String
    package let startedAt: Date
    package let heartbeatAt: Date
    package let reason: String?

    package init(id: Int64, title: String, state: String, owner: String, startedAt: Date, heartbeatAt: Date, reason: String?) {
        self.id = id
        self.title = title
        self.state = state
        self.owner = owner
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.reason = reason
    }
}

/// A step's row as read back.
package struct JournalStepRow: Sendable {
    package let step: Int
    package let title: String
    /// Nil when no revert was recorded (one made from the result, before the result came).
    package let kind: String?
    package let payload: Data?
    /// `pending`, `reverted` or `failed`.
    package let state: String
    package let lastError: String?
    /// Why the row's values are not what the journal writes (another program changed them):
    /// its revert cannot run. Nil for a sound row.
    package let damage: String?

    package init(
        step: Int, title: String, kind: String?, payload: Data?, state: String, lastError: String?, damage: String? = nil
    ) {
        self.step = step
        self.title = title
        self.kind = kind
        self.payload = payload
        self.state = state
        self.lastError = lastError
        self.damage = damage
    }
}

/// A flow with its steps, oldest first.
package struct JournalFlow: Sendable {
    package let row: JournalFlowRow
    package let steps: [JournalStepRow]

    package init(row: JournalFlowRow, steps: [JournalStepRow]) {
        self.row = row
        self.steps = steps
    }
}
