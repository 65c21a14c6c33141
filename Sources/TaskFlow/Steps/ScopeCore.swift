import Tracing

/// Everything a ``StepScope`` is but its state type: where steps run and register their
/// reverts, and how every kind of step runs (events, cancellation, revert registration), so
/// they behave the same everywhere.
///
/// Why a type of its own, not generic: the engine's generic code runs unspecialised (the
/// state type is the caller's, in another module), and there every call to a method of a
/// generic type, and every array of one, looks that type's metadata up at run time first:
/// about 330 instructions each, four of them per group child when this was
/// `StepScope<State>`'s own. (A fifth is left: a background step destroys its
/// `TaskContext<State>` through that type's metadata once `apply` returned.) A step's machinery never needed `State`; only the typed views
/// (``StepScope/state``, a background step's ``TaskContext``, an update) do, and
/// ``StepScope`` keeps those.
struct ScopeCore: Sendable {
    /// The flow its steps belong to; its ``FlowRecord/run`` is what they share.
    let record: FlowRecord
    /// ``parent``'s number, 0 for none (step numbers start at 1). Why not a `StepID?`: an
    /// optional `Int` takes 16 bytes, and a scope is copied into every frame and closure
    /// context between a group child's task and its body, which must fit in one slab of the
    /// task's allocator (see ``perform(_:_:apply:revert:)``): 48 bytes instead of 64.
    private let parentNumber: Int
    /// Whether completed steps register their reverts: inside ``parent`` (kept in its flow's
    /// record, see ``FlowRecord/stepCompleted(_:_:keeping:)``), or in the run's list
    /// (``FlowRun/reverts``) at the flow's top level. False only in a revert's own scope: what
    /// the revert runs is not kept (it runs once, and nothing would revert it); the scopes
    /// inside its sub-steps keep theirs, for those sub-steps' own failures.
    let keepsReverts: Bool
    /// Where this scope's steps read whether to stop: the scope of the group (or revert) they
    /// are inside, else their flow's own flag (one object less per flow than a scope of its own).
    let cancellation: CancellationScope.Source
    /// Set inside a background step's revert, which runs after the body ended (during a
    /// rollback or an undo) and may run sub-steps while it runs — not after: a context kept
    /// from a revert is refused like any other that outlived its flow. What they register is
    /// not kept.
    let revertWindow: RevertWindow?
    /// ``reservedID``'s number, 0 for none (see ``parentNumber``).
    private var reservedNumber = 0

    init(
        record: FlowRecord, parent: StepID?, keepsReverts: Bool = true, cancellation: CancellationScope.Source,
        revertWindow: RevertWindow? = nil
    ) {
        self.record = record
        parentNumber = parent?.rawValue ?? 0
        self.keepsReverts = keepsReverts
        self.cancellation = cancellation
        self.revertWindow = revertWindow
    }

    /// True once this scope's steps were asked to stop: by their group (a sibling failed) or
    /// their flow; never inside a revert, which runs in full.
    var isCancelled: Bool { cancellation.isCancelled }

    /// The step this scope lives inside; nil at the flow's top level.
    var parent: StepID? { parentNumber == 0 ? nil : StepID(parentNumber) }

    /// The id the next step started in this scope takes: a group child's, reserved in the
    /// group's order. Not inherited by the scopes inside that step.
    var reservedID: StepID? {
        get { reservedNumber == 0 ? nil : StepID(reservedNumber) }
        set { reservedNumber = newValue?.rawValue ?? 0 }
    }

    /// A scope for the inside of `step`, whose steps register their reverts inside it; for
    /// groups, with its own cancel flag.
    func child(of step: StepID, cancellation: CancellationScope? = nil) -> ScopeCore {
        ScopeCore(
            record: record, parent: step,
            cancellation: cancellation.map(CancellationScope.Source.scope) ?? self.cancellation, revertWindow: revertWindow)
    }

    /// Runs one step: refuses to start it once cancelled, announces it, runs `apply`, then
    /// registers `revert(value)` with the reverts registered inside the step (by the scopes of
    /// ``child(of:cancellation:)``) as children. If `apply` throws, the step is not reverted
    /// itself, but its inner reverts are, last-first, before the error goes on — as a
    /// ``RollbackIncompleteError`` if any of them failed, so a caller that catches it still
    /// learns of them.
    ///
    /// Always inlined into the step kinds' functions (its helpers stay out of line): as a frame
    /// of its own (384 bytes) under `task`'s (224) it made a group child's frames overflow the
    /// first 984-byte slab of the child task's allocator, a heap allocation for every child.
    /// Inlined (in cost round 3): 7 allocations and 15,633 instructions per group child instead
    /// of 8 and 16,492 (`Scripts/count-costs.sh`; the raw task-group child: 4 and 5,981).
    @inline(__always)
    func perform<T: Sendable>(
        _ title: String, _ kind: StepKind,
        apply: (StepInfo) async throws -> T,
        revert: (StepInfo, T) -> RevertAction
    ) async throws -> T {
        let counted = try enter(title)
        defer { if counted { record.run.leave() } }
        let step = started(title, kind)
        let value: T
        do {
            if let tracer = record.telemetry?.tracer {
                value = try await traced(step, tracer: tracer) { try await apply(step) }
            } else {
                value = try await apply(step)
            }
        } catch {
            throw await failed(step, error)
        }
        completed(step, revert(step, value))
        return value
    }

    // What `perform` does before and after `apply`, the traced run and the failure are
    // functions of their own, never inlined into it: an async function's frame holds the locals
    // of all its paths, and with them inlined `perform`'s frame was 2,320 bytes, more than a
    // task allocator's slab (984), so every step, and every group child's task, paid a heap
    // allocation for it (`Scripts/async-frame-sizes.py` lists the frames).

    /// Whether a step may start now; throws if not (the flow ended, or this scope was
    /// cancelled). Returns whether the step is counted as running (``FlowRun/enter(nested:)``),
    /// and must be let go (``FlowRun/leave()``): every step but those of a revert.
    @inline(never)
    private func enter(_ title: String) throws -> Bool {
        let counted = revertWindow == nil
        guard counted ? record.run.enter(nested: parent != nil) : revertWindow?.isOpen == true else {
            throw FlowError.stepAfterFlowEnded(flow: record.info, step: title)
        }
        if isCancelled {
            if counted { record.run.leave() }
            throw CancellationError()
        }
        return counted
    }

    /// Numbers and announces a step about to run.
    @inline(never)
    private func started(_ title: String, _ kind: StepKind) -> StepInfo {
        let step = StepInfo(id: reservedID ?? record.nextStepID(), parent: parent, title: title, kind: kind)
        record.stepStarted(step)
        return step
    }

    /// `step` completed: registers `action` with the reverts registered inside it as children,
    /// and announces its end.
    @inline(never)
    private func completed(_ step: StepInfo, _ action: RevertAction) {
        record.stepCompleted(step, action, keeping: keepsReverts)
    }

    /// Runs `apply` in a span for `step`, child of the flow's.
    @inline(never)
    private func traced<T>(_ step: StepInfo, tracer: any Tracer, _ apply: () async throws -> T) async throws -> T {
        let span = SpanScope.child(of: record.telemetry?.span?.context, named: step.title, tracer: tracer)
        span.attributes["taskflow.step.id"] = step.id.rawValue
        return try await SpanScope.run(in: span, apply)
    }

    /// `step`'s `apply` threw `error`: the step ends (cancelled or failed) and what it
    /// registered inside itself is reverted, last first. Returns the error to throw on.
    @inline(never)
    private func failed(_ step: StepInfo, _ error: any Error) async -> any Error {
        let (cause, earlier) = RollbackIncompleteError.split(error)
        // Only `CancellationError` counts as stopping on a cancel: a step that fails for
        // real after a cancel was requested reports its real error.
        let outcome: StepOutcome = cause is CancellationError ? .cancelled : .failed(String(describing: cause))
        let inside = record.stepFailed(step.id, outcome)
        let failures = earlier + (await Rollback(record: record).revert(inside))
        return RollbackIncompleteError.wrapping(cause, failures)
    }

    // MARK: - The step kinds that do not need the state's type

    /// A foreground step: `apply` on the main actor, and `revert`, if any, there too.
    func main<T: Sendable>(
        _ title: String,
        apply: @MainActor @Sendable () throws -> T,
        revert: (@MainActor @Sendable (T) throws -> Void)?
    ) async throws -> T {
        try await perform(title, revert == nil ? .query : .main) { _ in
            try await MainActor.run(body: apply)
        } revert: { _, value in
            guard let revert else { return .none }
            return .main { try revert(value) }
        }
    }
}
