import Tracing

/// Where a queued job's run span goes, taken when the job is added: the tracer in effect
/// then, and the adder's context, whose child the span is. Nil (not built) with the no-op tracer.
///
/// An object, so that the job's record holds one optional reference: as a struct (an
/// existential and an optional context) the question every job's run asks, whether there is
/// one, copied it out through its value witnesses and destroyed it, about 400 instructions
/// per job (`Scripts/count-costs.sh --profile queued-job`).
final class JobTrace: Sendable {
    let tracer: any Tracer
    let context: ServiceContext?

    /// The trace of a job added now; nil when nothing traces.
    static func current() -> JobTrace? {
        ActiveTracer.ifTracing { JobTrace(tracer: $0, context: ServiceContext.current) }
    }

    private init(tracer: any Tracer, context: ServiceContext?) {
        self.tracer = tracer
        self.context = context
    }

    /// A span for one run of job `id` of `queue`, named `title`.
    func runSpan(title: String, id: JobID, queue: String) -> any Span {
        let span = tracer.startSpan(title, context: context ?? .topLevel)
        span.attributes["taskflow.job.id"] = Int64(truncatingIfNeeded: id.rawValue)
        span.attributes["taskflow.job.queue"] = queue
        return span
    }
}
