import Foundation

/// What the rollback of a journaled flow replays: its steps not yet checkpointed, oldest first,
/// each with its revert, and — for a step whose revert cannot run here (no handler, JSON that no
/// longer decodes, a damaged row) — the reason. The rollback stops at the newest such step: the
/// steps journaled before it are left as they are, since their reverts may rely on its.
struct RollbackPlan {
    struct Step {
        let number: Int
        let title: String
        let revert: JournalStep.Revert?
        /// Why its revert cannot run; nil when it can.
        let unrunnable: String?
    }

    let steps: [Step]

    init(_ flow: JournalFlow, handlers: RevertHandlers) {
        let due = flow.steps.filter { $0.state != "reverted" }.map { Self.step($0, handlers: handlers) }
        steps = due.lastIndex { $0.unrunnable != nil }.map { Array(due[$0...]) } ?? due
    }

    private static func step(_ row: JournalStepRow, handlers: RevertHandlers) -> Step {
        let revert = zip(row.kind, row.payload).map(JournalStep.Revert.init)
        return Step(number: row.step, title: row.title, revert: revert, unrunnable: unrunnable(row, revert, handlers))
    }

    private static func unrunnable(_ row: JournalStepRow, _ revert: JournalStep.Revert?, _ handlers: RevertHandlers) -> String? {
        if let damage = row.damage { return "its journal row is damaged: \(damage)" }
        guard ["pending", "failed"].contains(row.state) else { return "its journal row has an unknown state \"\(row.state)\"" }
        guard let revert else { return nil }
        do {
            _ = try handlers.prepare(kind: revert.kind, payload: revert.payload)
            return nil
        } catch {
            return String(describing: error)
        }
    }
}

/// `(a, b)` when both are there.
private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
