import Foundation
import TaskFlow
import TaskFlowSupport

/// Durable flows (DESIGN §8): a crash never leaves a write flow half-applied.
///
/// ```swift
/// let flows = DurableFlows(manager: manager, store: store)
/// flows.register(DeletePhoto.self) { revert in try await photos.delete(revert.key) }
/// let recovered = try await flows.recover()      // before new flows
/// let flow = flows.execute(title: "Publish") { flow in
///     let key = "photos/\(UUID())"
///     try await flow.task(title: "Upload", revert: DeletePhoto(key: key)) { _ in try await photos.put(data, at: key) }
///     return key
/// }
/// try await flows.undo(flow.id)                 // also after a restart
/// ```
///
/// **What is durable.** A step run with `StepContext/task(title:revert:apply:)` journals its
/// ``StoredRevert`` in the job store's database **before** it runs (write-ahead). Cancel and
/// failure roll the flow back as always — stored reverts through their handlers, interleaved
/// with the flow's in-memory reverts exactly as the engine orders them, each checkpointed in
/// the journal when its handler returns. After a crash, ``recover()`` rolls back every flow a
/// dead process left unfinished, last step first, resuming after the last checkpoint. What
/// lives only in the process (`main` steps, `update`s of the manager's state) died with it and
/// needs no revert then.
///
/// **Completion** is committed in the journal before the flow's completion is announced. A
/// completed flow's stored reverts stay in the journal while it is in the manager's undo
/// history, so ``undo(_:)`` works after a restart too (stored reverts only).
///
/// **Locking.** Durable flows hold the manager's lock like any flow (write flows exclusive,
/// read flows shared) — in this process. Two processes sharing a journal do not exclude each
/// other's write flows.
///
/// **Flow ids.** ``recover()`` reserves this process a block of flow ids no other process of
/// the journal uses and numbers the manager's flows from it, so one id names one flow in the
/// journal after restarts too: call it before the first durable flow.
public final class DurableFlows<State: Sendable>: Sendable {
    /// How many flow ids ``recover()`` reserves for this process (from 1, 1000001, 2000001, …:
    /// the journal's flows of one run read as one series).
    static var idBlock: Int { 1_000_000 }

    private let manager: TaskFlowManager<State>
    let journal: FlowJournal
    /// Whether ``recover()`` reserved this process its flow ids (once is enough).
    private let idsReserved = Protected(false)

    /// Durable flows of `manager`, journaled in `store`'s database (SQLite or PostgreSQL), by
    /// the store's process identity and lease: a flow whose process is gone (proved as for the
    /// store's leases) or silent for longer than a lease is rolled back by ``recover()``. The
    /// journal keeps as many finished flows as the manager's undo history.
    public init(manager: TaskFlowManager<State>, store: JobStore) {
        self.manager = manager
        let environment = store.environment
        // Every backend of the package journals flows (see `JobStoreBackend`).
        journal = FlowJournal(
            backend: store.journal, owner: environment.owner, lease: environment.lease, clock: environment.clock,
            keepingFinished: manager.undoHistoryLimit)
    }

    /// Registers the handler of `type`'s kind (replacing any earlier one), with the policy that
    /// retries it while it throws; once the policy gives up, the rollback goes on and the flow
    /// ends ``DurableFlowState/rollbackIncomplete`` with the error, kept for a person to retry.
    /// Handlers must be idempotent and must tolerate a step that never ran, or ran in part.
    public func register<Revert: StoredRevert>(
        _ type: Revert.Type,
        retry policy: RetryPolicy = .exponential(maxAttempts: 5, initial: .milliseconds(100), multiplier: 2, cap: .seconds(5)),
        handler: @escaping @Sendable (Revert) async throws -> Void
    ) {
        journal.handlers.register(type, policy: policy, handler: handler)
    }

    /// Submits a durable flow and returns its handle at once: `TaskFlowManager/execute(title:access:body:)`
    /// whose steps may store their reverts (`StepContext/task(title:revert:apply:)`).
    @discardableResult
    public func execute<Value: Sendable>(
        title: String, access: FlowAccess = .write, body: @escaping @Sendable (FlowContext<State>) async throws -> Value
    ) -> TaskFlow<Value> {
        manager.execute(title: title, access: access, attachment: DurableRun(journal: journal, title: title), body: body)
    }

    /// Rolls back what a crash interrupted, before new durable flows: every journaled flow that
    /// was running or rolling back when its process died (same host: another boot, or a pid
    /// that no longer runs; any host: a heartbeat older than the store's lease). Each is rolled
    /// back as a flow of the manager titled `Recovering …` (so a dashboard shows its stored
    /// steps unwinding), one after another, its stored reverts last first, skipping those
    /// already checkpointed; a crash meanwhile leaves the rest to the next recovery. A flow
    /// owned by a live process is never touched.
    ///
    /// A revert that keeps failing, a journaled revert that no longer decodes or whose kind has
    /// no handler leaves its flow ``DurableFlowState/rollbackIncomplete`` with the reason (the
    /// latter stop that flow's rollback where they are); the other flows go on. Also reserves
    /// this process its flow ids (see the type's documentation). Returns the flows rolled back.
    @discardableResult
    public func recover() async throws -> [RecoveredFlow] {
        if !idsReserved.withLock({ $0 }) {
            let first = try await journal.backend.reserveFlowIDs(count: Self.idBlock)
            manager.numberFlows(from: FlowID(Int(first)))
            idsReserved.withLock { $0 = true }
        }
        let journal = journal
        let flows = try await journal.backend.takeOver(
            .interrupted(isDead: { journal.isDead(owner: $0, heartbeat: $1) }), owner: journal.owner.encoded,
            now: journal.clock.date)
        var recovered: [RecoveredFlow] = []
        for flow in flows { recovered.append(await rollBack(flow, purpose: .recovery)) }
        return recovered
    }

    /// Undoes completed write flow `id`: through the manager while it holds the flow (in-memory
    /// and stored reverts), else — after a restart — from the journal (stored reverts only),
    /// as a flow titled `Undo …`. Throws ``DurableFlowError/noSuchFlow(_:needs:)`` when neither
    /// has it completed (undone already, never completed, or out of the undo history), and a
    /// `RollbackIncompleteError` when a revert failed (the journal keeps the flow for a retry).
    public func undo(_ id: FlowID) async throws {
        do {
            try await manager.undo(id)
            return
        } catch FlowError.unknownFlow {
            // Not this process's: a flow of an earlier run, if the journal kept it.
        }
        let flows = try await journal.backend.takeOver(
            .flow(Int64(id.rawValue), states: [.completed]), owner: journal.owner.encoded, now: journal.clock.date)
        guard let flow = flows.first else { throw DurableFlowError.noSuchFlow(id, needs: "completed") }
        let outcome = await rollBack(flow, purpose: .undo)
        if let error = outcome.error { throw error }
    }

    /// Rolls back again a flow whose rollback was left incomplete (``DurableFlowState/rollbackIncomplete``),
    /// from its first revert not checkpointed — once its handler is fixed or registered.
    /// Throws ``DurableFlowError/noSuchFlow(_:needs:)`` when the journal has no such flow.
    @discardableResult
    public func retryRollback(_ id: FlowID) async throws -> RecoveredFlow {
        let flows = try await journal.backend.takeOver(
            .flow(Int64(id.rawValue), states: [.rollbackIncomplete]), owner: journal.owner.encoded, now: journal.clock.date)
        guard let flow = flows.first else { throw DurableFlowError.noSuchFlow(id, needs: "rollback-incomplete") }
        return await rollBack(flow, purpose: .recovery)
    }

    /// Rolls journaled `flow` back as a write flow of the manager: each stored step not yet
    /// checkpointed is replayed as a step (nothing runs), then the flow cancels itself and the
    /// engine reverts them last first. A step whose revert cannot run here stops the rollback
    /// there: the steps journaled before it are not replayed.
    private func rollBack(_ flow: JournalFlow, purpose: DurableRun.Purpose) async -> RecoveredFlow {
        let run = DurableRun(journal: journal, rollingBack: flow, purpose: purpose)
        let plan = RollbackPlan(flow, handlers: journal.handlers)
        let id = FlowID(Int(flow.row.id))
        let verb = purpose == .undo ? "Undo" : "Recovering"
        let handle = manager.execute(title: "\(verb) \(id) \(flow.row.title)", access: .write, attachment: run) { context in
            for step in plan.steps {
                try await context.scope.recordedTask(
                    step.title, recording: JournaledStep.replaying(step, in: run),
                    apply: { _ in })
            }
            throw CancellationError()
        }
        do {
            try await handle.value
            return RecoveredFlow(id: id, title: flow.row.title, rolledBackAs: handle.id, error: nil)
        } catch is CancellationError {
            return RecoveredFlow(id: id, title: flow.row.title, rolledBackAs: handle.id, error: nil)
        } catch {
            return RecoveredFlow(id: id, title: flow.row.title, rolledBackAs: handle.id, error: error)
        }
    }
}
