/// How a background step whose revert is kept outside the process (a durable flow's journal)
/// records it: the engine side of `TaskFlowStore`'s durable steps, `package` so that the core
/// knows nothing of journals.
package struct StepRecording<Value: Sendable>: Sendable {
    /// Runs inside the step, before `apply`: records the revert (write-ahead). A throw fails the
    /// step before `apply` ran; nothing is reverted for it.
    package let begin: @Sendable (StepInfo) async throws -> Void
    /// Runs once `apply` returned, before the step completes: records a revert made from the
    /// result. A throw fails the step (and `revert` runs).
    package let applied: @Sendable (Value) async throws -> Void
    /// The step's revert: in a rollback or an undo, and also when `apply` (or `applied`) threw,
    /// since the step's effect may then exist in part.
    package let revert: @Sendable () async throws -> Void

    package init(
        begin: @escaping @Sendable (StepInfo) async throws -> Void,
        applied: @escaping @Sendable (Value) async throws -> Void,
        revert: @escaping @Sendable () async throws -> Void
    ) {
        self.begin = begin
        self.applied = applied
        self.revert = revert
    }
}

extension StepScope {
    /// A background step whose revert `recording` keeps: recorded before `apply` runs, and run
    /// whatever happens after that — a rollback, an undo, or `apply` throwing (after what the
    /// step ran inside itself is reverted, as for any step).
    package func recordedTask<T: Sendable>(
        _ title: String, recording: StepRecording<T>, apply: (TaskContext<State>) async throws -> T
    ) async throws -> T {
        let core = core
        return try await core.perform(title, .task) { step in
            try await recording.begin(step)
            let context = TaskContext(scope: StepScope(core.child(of: step.id)), step: step)
            do {
                let value = try await apply(context)
                try await recording.applied(value)
                return value
            } catch {
                // The effect may exist in part: its revert runs, after the step's inner ones.
                let (cause, earlier) = RollbackIncompleteError.split(error)
                let entry = RevertEntry(step: step, action: .background(recording.revert), children: core.record.takeInside(step.id))
                throw RollbackIncompleteError.wrapping(cause, earlier + (await Rollback(record: core.record).revert([entry])))
            }
        } revert: { _, _ in
            .background(recording.revert)
        }
    }
}

extension StepContext {
    /// What the code that submitted this context's flow keeps beside it (see
    /// ``TaskFlowManager/execute(title:access:attachment:body:)``); nil for a plain flow.
    package var flowAttachment: (any FlowAttachment)? { scope.record.attachment }

    /// The flow's id, from any context of it.
    package var flowID: FlowID { scope.record.info.id }
}
