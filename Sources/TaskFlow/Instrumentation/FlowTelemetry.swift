import Tracing

/// One flow's metrics and span (DESIGN §9), decided when it is submitted. A flow submitted
/// with the default no-op backends has none: ``make(metrics:tracer:title:access:)`` returns
/// nil, and its record's `telemetry` is nil.
///
/// Why an object, and optional: a flow's path asks its telemetry something at each step and at
/// each change of status, and as a struct kept in the record (two optional existentials, an
/// optional instant and the metrics) every such question copied an optional existential out
/// and destroyed it through its value witnesses, about 140 instructions each, and the record
/// carried 120 bytes more. Untraced and unmeasured, each question is now one pointer test.
///
/// The flow's span is named after its title, a child of the context that submitted it, with
/// the attributes `taskflow.flow.id`, `taskflow.flow.access` and (once it ends)
/// `taskflow.flow.outcome`; each step and each revert is a child span of it.
final class FlowTelemetry: Sendable {
    /// Its access's `taskflow.flows`, `taskflow.flow.duration` and `taskflow.lock.wait`; nil
    /// with the no-op metrics factory.
    let metrics: FlowMetrics?
    /// When the flow was submitted: the start of `taskflow.flow.duration` and of its lock wait
    /// (`taskflow.lock.wait`).
    let submitted: ContinuousClock.Instant
    /// The tracer its step and revert spans go to; nil with the no-op one.
    let tracer: (any Tracer)?
    /// The flow's own span, started when it was submitted; nil when not traced.
    let span: (any Span)?

    /// The telemetry of a flow submitted at `submitted`, with `metrics` and `tracer` (each nil
    /// for its no-op backend); nil when both are.
    static func make(
        metrics: FlowMetrics?, tracer: (any Tracer)?, title: String, access: FlowAccess, submitted: ContinuousClock.Instant
    ) -> FlowTelemetry? {
        guard metrics != nil || tracer != nil else { return nil }
        return FlowTelemetry(metrics: metrics, tracer: tracer, title: title, access: access, submitted: submitted)
    }

    private init(metrics: FlowMetrics?, tracer: (any Tracer)?, title: String, access: FlowAccess, submitted: ContinuousClock.Instant) {
        self.metrics = metrics
        self.submitted = submitted
        self.tracer = tracer
        span = tracer.map { tracer in
            let span = tracer.startSpan(title, context: ServiceContext.current ?? .topLevel)
            span.attributes["taskflow.flow.access"] = access.rawValue
            return span
        }
    }

    /// The flow got the lock: records its wait since it was submitted. Out of line: it runs on
    /// every flow's task, whose async frames must stay small (see ``FlowEngine``'s runner).
    @inline(never)
    func lockGiven() {
        metrics?.lockGiven(askedAt: submitted)
    }

    /// Whether the flow has a span. Out of line: inlined into the flow's runner, its copy of
    /// the optional span (40 bytes) took room in the runner's async frame, under every flow's
    /// body, traced or not.
    var isTraced: Bool {
        @inline(never) get { span != nil }
    }

    /// The flow got its id.
    func numbered(_ id: FlowID) {
        span?.attributes["taskflow.flow.id"] = id.rawValue
    }

    /// The flow reached `status`: a final one is counted; the first (not an undo's) also ends
    /// the duration and the span.
    func reached(_ status: FlowStatus) {
        guard let outcome = FlowOutcome(status) else { return }
        metrics?.outcomes[outcome]?.increment()
        if case .undone = status { return }
        if case .rollbackIncomplete(.undo, _) = status { return }
        metrics?.duration.record(since: submitted)
        guard let span else { return }
        Self.conclude(span, outcome: outcome, status: status)
    }

    /// Sets the outcome attribute (and an error status for a failure) and ends `span`.
    static func conclude(_ span: any Span, outcome: FlowOutcome, status: FlowStatus) {
        span.attributes["taskflow.flow.outcome"] = outcome.rawValue
        if case .failed(let error) = status {
            SpanScope.failed(span, error)
        } else if let message = status.failureMessage {
            span.setStatus(SpanStatus(code: .error, message: message))
        }
        span.end()
    }

    /// The span of an undo of this flow: a child of `context` (the undo's caller), linked to the
    /// flow's own span; nil when the flow is not traced.
    func undoSpan(title: String, id: FlowID, access: FlowAccess, context: ServiceContext?) -> (any Span)? {
        guard let tracer, let span else { return nil }
        let undo = tracer.startSpan("undo \(title)", context: context ?? .topLevel)
        undo.attributes["taskflow.flow.id"] = id.rawValue
        undo.attributes["taskflow.flow.access"] = access.rawValue
        undo.addLink(SpanLink(context: span.context, attributes: [:]))
        return undo
    }
}
