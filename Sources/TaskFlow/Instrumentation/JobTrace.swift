import Tracing

/// Where a queued job's run span goes, taken when the job is added: the tracer in effect
/// then, and the adder's context, whose child the span is. Nil (not built) with the no-op tracer.
struct JobTrace: Sendable {
    let tracer: any Tracer
    let context: ServiceContext?

    /// The trace of a job added now; nil when nothing traces.
    static func current() -> JobTrace? {
        ActiveTracer.current.map { JobTrace(tracer: $0, context: ServiceContext.current) }
    }

    /// A span for one run of job `id` of `queue`, named `title`.
    func runSpan(title: String, id: JobID, queue: String) -> any Span {
        let span = tracer.startSpan(title, context: context ?? .topLevel)
        span.attributes["taskflow.job.id"] = Int64(truncatingIfNeeded: id.rawValue)
        span.attributes["taskflow.job.queue"] = queue
        return span
    }
}
