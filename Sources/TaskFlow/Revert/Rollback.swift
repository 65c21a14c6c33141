/// Runs reverts last-first and keeps going past failures, recording each one.
///
/// Background reverts run on the caller's (background) task; foreground reverts hop to the main
/// actor one at a time. Each revert is announced (`stepReverting`) and concluded
/// (`stepReverted` / `revertFailed`) so observers watch the flow unwind.
struct Rollback: Sendable {
    let flow: FlowID
    let hub: EventHub
    let failures: FailureCollector

    /// Reverts `entries` (given in registration order) in reverse order.
    func revert(_ entries: [RevertEntry]) async {
        for entry in entries.reversed() {
            await revert(entry)
        }
    }

    private func revert(_ entry: RevertEntry) async {
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
        await revert(entry.children)
        if let failure {
            failures.record(RevertFailure(step: entry.step, error: failure))
            hub.emit(.revertFailed(flow, entry.step.id, String(describing: failure)))
        } else {
            hub.emit(.stepReverted(flow, entry.step.id))
        }
    }
}
