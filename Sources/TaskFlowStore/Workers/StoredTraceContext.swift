import Foundation
import TaskFlow
import Tracing

/// A stored job's link to the span that submitted it: the submitter's `ServiceContext` as the
/// bootstrapped instrument injects it (W3C trace context — `traceparent`, `tracestate` — with
/// OpenTelemetry), kept in the job's row as a JSON object and extracted by whichever process
/// runs the job.
enum StoredTraceContext {
    /// The calling task's context, injected; nil when nothing traces or it carries nothing.
    static func current() -> String? {
        guard let context = ServiceContext.current, ActiveTracer.current != nil else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        guard !carrier.isEmpty, let json = try? JSONEncoder().encode(carrier) else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// The context `text` (from ``current()``) carries; nil for none, or for text that is not a
    /// carrier (a row written by hand): a link is never worth failing a job for.
    static func extract(_ text: String?) -> ServiceContext? {
        guard let text, let carrier = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
            return nil
        }
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(carrier, into: &context, using: DictionaryExtractor())
        return context
    }
}

private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
