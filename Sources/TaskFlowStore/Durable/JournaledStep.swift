import Foundation
import TaskFlow
import TaskFlowSupport

/// One durable step as the engine runs it (a `StepRecording`): journaled by its flow's
/// ``DurableRun`` before `apply`, its revert run through the journal.
final class JournaledStep: Sendable {
    private let run: DurableRun
    private let flowID: FlowID
    private let title: String
    /// Its number once journaled, and its revert once known.
    private let journaled: Protected<(number: Int?, revert: JournalStep.Revert?)>

    private init(run: DurableRun, flowID: FlowID, title: String, revert: JournalStep.Revert?) {
        self.run = run
        self.flowID = flowID
        self.title = title
        journaled = Protected((nil, revert))
    }

    /// A step of `context`'s durable flow whose revert is `revert` (nil: made from the result by
    /// `revertOfResult`), as the engine records it. Throws before anything runs when the flow is
    /// not durable or no handler is registered for `kind`.
    static func recording<Value: Sendable>(
        in context: some StepContext, title: String, kind: String, revert: JournalStep.Revert?,
        revertOfResult: (@Sendable (Value) throws -> JournalStep.Revert)? = nil
    ) throws -> StepRecording<Value> {
        guard let run = context.flowAttachment as? DurableRun else { throw DurableFlowError.notDurable(step: title) }
        guard run.journal.handlers.handler(for: kind) != nil else { throw DurableFlowError.noHandler(kind: kind, step: title) }
        let step = JournaledStep(run: run, flowID: context.flowID, title: title, revert: revert)
        return StepRecording(
            begin: { _ in try await step.begin() },
            applied: { value in if let revertOfResult { try await step.record(try revertOfResult(value)) } },
            revert: { try await step.revert() })
    }

    /// A step of a journaled flow being rolled back (recovery, undo after a restart): journaled
    /// already, as `step.number` with `step.revert`; one whose revert cannot run here fails
    /// its revert with the reason, recorded in the journal.
    static func replaying(_ step: RollbackPlan.Step, in run: DurableRun) -> StepRecording<Void> {
        let replayed = JournaledStep(run: run, flowID: FlowID(0), title: step.title, revert: step.revert)
        replayed.journaled.withLock { $0.number = step.number }
        return StepRecording(begin: { _ in }, applied: { _ in }) {
            guard let reason = step.unrunnable else { return try await replayed.revert() }
            await run.refuse(step: step.number, reason: reason)
            throw DurableFlowError.unrunnableRevert(step: step.title, reason: reason)
        }
    }

    private func begin() async throws {
        let revert = journaled.withLock { $0.revert }
        let number = try await run.append(step: title, of: flowID, revert: revert)
        journaled.withLock { $0.number = number }
    }

    private func record(_ revert: JournalStep.Revert) async throws {
        guard let number = journaled.withLock({ $0.number }) else { return }
        try await run.setRevert(step: number, revert)
        journaled.withLock { $0.revert = revert }
    }

    /// Runs the revert; a step whose journaling failed has nothing to revert.
    private func revert() async throws {
        let (number, revert) = journaled.withLock { ($0.number, $0.revert) }
        guard let number else { return }
        try await run.revert(step: number, revert)
    }
}

extension JournalStep.Revert {
    /// `revert` as the journal stores it: its kind and its JSON.
    init<Revert: StoredRevert>(_ revert: Revert) throws {
        self.init(kind: Revert.kind, payload: try JSONEncoder().encode(revert))
    }
}
