import Tracing

/// Runs work inside a span: what a step, a revert and a job run do when traced.
enum SpanScope {
    /// Runs `body` with `span` as the task's current context, so that spans started inside it
    /// (nested steps, the caller's own instrumented calls) are its children; records what it
    /// throws on the span, then ends the span.
    static func run<T>(in span: any Span, _ body: () async throws -> T) async throws -> T {
        defer { span.end() }
        do {
            return try await ServiceContext.$current.withValue(span.context) { try await body() }
        } catch {
            failed(span, error)
            throw error
        }
    }

    /// Marks `span` as failed with `error`.
    static func failed(_ span: any Span, _ error: any Error) {
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
    }

    /// A span child of the task's current context (or of `fallback` when the task has none).
    static func child(of fallback: ServiceContext?, named name: String, tracer: any Tracer) -> any Span {
        tracer.startSpan(name, context: ServiceContext.current ?? fallback ?? .topLevel)
    }
}
