/// Runs reverts last-first and keeps going past failures, returning each one.
///
/// Background reverts run on the caller's (background) task; foreground reverts hop to the main
/// actor one at a time. Each revert is announced (`stepReverting`) and concluded
/// (`stepReverted` / `revertFailed`) so observers watch the flow unwind.
struct Rollback: Sendable {
    let flow: FlowID
    let hub: EventHub

    /// Reverts `entries` (given in registration order) in reverse order; returns the reverts that
    /// threw, in the order they ran.
    func revert(_ entries: [RevertEntry]) async -> [RevertFailure] {
        var failures: [RevertFailure] = []
        for entry in entries.reversed() {
            failures += await revert(entry)
        }
        return failures
    }

    private func revert(_ entry: RevertEntry) async -> [RevertFailure] {
        hub.emit(.stepReverting(flow, entry.step.id))
        var failure: (any Error)?
        do {
            switch entry.action {
            case .none: break
            case .main(let action): try await MainActor.run(body: action)
            case .background(let action): try await action()
            }
        } catch {
            failure = error
        }
        // The step's own revert undoes its work as a whole; what it registered inside itself
        // (foreground sub-steps, children) is unwound after, last-first.
        let inner = await revert(entry.children)
        guard let failure else {
            hub.emit(.stepReverted(flow, entry.step.id))
            return inner
        }
        hub.emit(.revertFailed(flow, entry.step.id, String(describing: failure)))
        return [RevertFailure(step: entry.step, error: failure)] + inner
    }
}
