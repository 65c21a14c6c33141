import Tracing

/// Where steps run and register their reverts: the flow itself, the inside of a background
/// step, or the inside of a group or sequence. Opaque outside the engine: ``StepContext``
/// requires one so that ``FlowContext`` and ``TaskContext`` share every step method.
///
/// Every kind of step runs through one `perform`, so events, cancellation and revert
/// registration behave the same everywhere.
public struct StepScope<State: Sendable>: Sendable {
    let run: FlowRun<State>
    /// The step this scope lives inside; nil at the flow's top level.
    let parent: StepID?
    /// Where completed steps register their reverts.
    let log: RevertLog
    let cancellation: CancellationScope
    /// Set inside a background step's revert, which runs after the body ended (during a
    /// rollback or an undo) and may run sub-steps while it runs — not after: a context kept
    /// from a revert is refused like any other that outlived its flow. What they register is
    /// not kept.
    var revertWindow: RevertWindow?
    /// The id the next step started in this scope takes: a group child's, reserved in the
    /// group's order. Not inherited by the scopes inside that step.
    var reservedID: StepID?

    /// A scope for the inside of `step`: its own log and, for groups, its own cancel flag.
    func child(of step: StepID, log: RevertLog, cancellation: CancellationScope? = nil) -> StepScope {
        StepScope(
            run: run, parent: step, log: log, cancellation: cancellation ?? self.cancellation,
            revertWindow: revertWindow)
    }

    /// Runs one step: refuses to start it once cancelled, announces it, runs `apply` with a log
    /// for what it registers inside itself, then registers `revert(value)` with those inner
    /// reverts as children. If `apply` throws, the step is not reverted itself, but its inner
    /// reverts are, last-first, before the error goes on — as a ``RollbackIncompleteError`` if
    /// any of them failed, so a caller that catches it still learns of them.
    func perform<T: Sendable>(
        _ title: String, _ kind: StepKind,
        apply: (StepInfo, RevertLog) async throws -> T,
        revert: (StepInfo, T) -> RevertAction
    ) async throws -> T {
        let counted = revertWindow == nil
        guard counted ? run.enter(nested: parent != nil) : revertWindow?.isOpen == true else {
            throw FlowError.stepAfterFlowEnded(flow: run.record.info, step: title)
        }
        defer { if counted { run.leave() } }
        if cancellation.isCancelled { throw CancellationError() }
        let step = StepInfo(id: reservedID ?? run.record.nextStepID(), parent: parent, title: title, kind: kind)
        let record = run.record
        record.stepStarted(step)
        let inner = RevertLog()
        let value: T
        do {
            if let tracer = record.telemetry.tracer {
                let span = SpanScope.child(of: record.telemetry.span?.context, named: title, tracer: tracer)
                span.attributes["taskflow.step.id"] = step.id.rawValue
                value = try await SpanScope.run(in: span) { try await apply(step, inner) }
            } else {
                value = try await apply(step, inner)
            }
        } catch {
            let (cause, earlier) = RollbackIncompleteError.split(error)
            // Only `CancellationError` counts as stopping on a cancel: a step that fails for
            // real after a cancel was requested reports its real error.
            let outcome: StepOutcome = cause is CancellationError ? .cancelled : .failed(String(describing: cause))
            record.stepFinished(step.id, outcome)
            let failures = earlier + (await run.rollback.revert(inner.drain()))
            throw RollbackIncompleteError.wrapping(cause, failures)
        }
        let action = revert(step, value)
        let children = inner.drain()
        if case .none = action, children.isEmpty {
            // Nothing to undo (a query, a step without revert): keep the log lean.
        } else {
            log.append(RevertEntry(step: step, action: action, children: children))
        }
        record.stepFinished(step.id, .completed)
        return value
    }

    // MARK: - The step kinds, shared by FlowContext, TaskContext and composite builders

    func main<T: Sendable>(
        _ title: String,
        apply: @MainActor @Sendable () throws -> T,
        revert: (@MainActor @Sendable (T) throws -> Void)?
    ) async throws -> T {
        try await perform(title, revert == nil ? .query : .main) { _, _ in
            try await MainActor.run(body: apply)
        } revert: { _, value in
            guard let revert else { return .none }
            return .main { try revert(value) }
        }
    }

    func task<T: Sendable>(
        _ title: String,
        apply: (TaskContext<State>) async throws -> T,
        revert: (@Sendable (TaskContext<State>, T) async throws -> Void)?
    ) async throws -> T {
        try await perform(title, .task) { step, inner in
            let context = TaskContext(scope: child(of: step.id, log: inner), step: step)
            // Whatever the outcome, observers see the last progress the step reported.
            defer { context.publishLastProgress() }
            return try await apply(context)
        } revert: { step, value in
            guard let revert else { return .none }
            // Capture only the flow run: capturing this scope would capture its log, which is
            // about to hold this very closure, and the cycle would leak the flow.
            let run = run
            return .background {
                // A revert runs outside the flow's cancellation (reverts always run in full);
                // what it registers itself is not kept. Built only when the revert runs, so a
                // step that is never reverted costs nothing for it.
                let window = RevertWindow()
                defer { window.close() }
                let revertScope = StepScope(
                    run: run, parent: step.id, log: RevertLog(), cancellation: CancellationScope(), revertWindow: window)
                try await revert(TaskContext(scope: revertScope, step: step), value)
            }
        }
    }

    func update(_ title: String, _ change: (inout State) throws -> Void) async throws {
        guard run.record.info.access == .write else {
            throw FlowError.updateInReadFlow(flow: run.record.info)
        }
        let store = run.store
        _ = try await perform(title, .update) { step, _ in
            try store.update(step, change)
        } revert: { _, restore in
            .background(restore)
        }
    }

    /// Runs a group or sequence as one step whose reverts are its children's.
    func perform(_ composite: CompositeStep<State>) async throws {
        try await perform(composite.title, composite.mode.stepKind) { step, inner in
            switch composite.mode {
            case .group:
                // A failing child cancels its siblings through this flag, not the whole flow.
                let siblings = CancellationScope(parent: cancellation)
                try await Self.runParallel(composite.children, in: child(of: step.id, log: inner, cancellation: siblings))
            case .sequence:
                try await Self.runSerial(composite.children, in: child(of: step.id, log: inner))
            }
        } revert: { _, _ in .none }
    }
}
