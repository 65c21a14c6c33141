import Tracing

/// Runs reverts last-first and keeps going past failures, returning each one.
///
/// Background reverts run on the caller's (background) task; foreground reverts hop to the main
/// actor one at a time. Each revert is announced (`stepReverting`) and concluded
/// (`stepReverted` / `revertFailed`) so observers watch the flow unwind.
struct Rollback: Sendable {
    let record: FlowRecord

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
        guard let tracer = record.telemetry?.tracer else { return await revertUntraced(entry) }
        let span = SpanScope.child(of: record.telemetry?.span?.context, named: "revert \(entry.step.title)", tracer: tracer)
        span.attributes["taskflow.step.id"] = entry.step.id.rawValue
        defer { span.end() }
        let failures = await ServiceContext.$current.withValue(span.context) { await revertUntraced(entry) }
        // The entry's own revert is the last failure it reports, if it threw.
        if let own = failures.last, own.step.id == entry.step.id { SpanScope.failed(span, own.error) }
        return failures
    }

    /// Reverts one entry: what it registered inside itself, then its own revert.
    private func revertUntraced(_ entry: RevertEntry) async -> [RevertFailure] {
        record.stepReverting(entry.step)
        // What the step ran inside itself (sub-steps, children) is unwound first, last-first,
        // so the step's own revert finds things as its apply left them.
        let inner = await revert(entry.children)
        do {
            switch entry.action {
            case .none: break
            case .main(let action): try await MainActor.run(body: action)
            case .background(let action): try await action()
            }
        } catch {
            return inner + [failed(entry.step, error)]
        }
        record.stepReverted(entry.step)
        return inner
    }

    /// Announces that `step`'s revert threw `error`, and returns the failure. Not inlined: the
    /// error's description, inlined, added 850 bytes to ``revertUntraced(_:)``'s frame, which
    /// every revert of a rollback allocates from its task's allocator.
    @inline(never)
    private func failed(_ step: StepInfo, _ error: any Error) -> RevertFailure {
        record.revertFailed(step, error)
        return RevertFailure(step: step, error: error)
    }
}
