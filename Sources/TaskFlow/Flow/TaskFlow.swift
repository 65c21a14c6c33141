/// The handle of a submitted flow. Copies refer to the same flow.
public struct TaskFlow<Value: Sendable>: Sendable {
    let record: FlowRecord
    let engine: FlowEngine

    /// The flow's identity.
    public var id: FlowID { record.info.id }
    /// The flow's title.
    public var title: String { record.info.title }
    /// Read or write.
    public var access: FlowAccess { record.info.access }
    /// Identity, title and access together: how events and errors name the flow.
    public var info: FlowInfo { record.info }
    /// Where the flow is in its lifecycle right now.
    public var status: FlowStatus { record.status }

    /// Cancels the flow. Waiting for the lock: it leaves the queue at once and its body never
    /// runs. Running: the current step finishes (it may stop early by checking
    /// ``TaskContext/isCancelled``), then every registered revert runs in reverse order. Only the
    /// first call has an effect; a call after the flow finished or during a rollback has none.
    public func cancel() {
        engine.cancel(record)
    }

    /// What the body returned. Throws `CancellationError` if the flow was cancelled, the step's
    /// error if it failed, or ``RollbackIncompleteError`` if some reverts failed; in every case
    /// only after the rollback is over and the lock released.
    public var value: Value {
        get async throws {
            // Sound: the completion holds what this flow's body, of type `Value`, returned. A
            // forced cast, because `as?` builds `Optional<Value>`'s type metadata at run time on
            // every call (generic code called from another module runs unspecialised): about
            // 330 instructions per flow.
            try await record.completion.outcome.get() as! Value
        }
    }

    /// Waits for the flow to end, whatever the outcome, and returns its final status.
    @discardableResult
    public func finished() async -> FlowStatus {
        _ = await record.completion.outcome
        return record.status
    }

    /// Reverts a completed write flow: takes the write lock again, runs its reverts in reverse
    /// order, and ends ``FlowStatus/undone``. Throws ``FlowError`` for a read flow, a flow that is
    /// not completed (failed, cancelled, running, already undone), or one whose log left the undo
    /// history; ``RollbackIncompleteError`` if some reverts failed (the others still ran).
    public func undo() async throws {
        try await engine.undo(record)
    }
}
