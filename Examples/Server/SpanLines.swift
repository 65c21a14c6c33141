import Foundation
import Instrumentation
import Synchronization
import Tracing

/// The example's tracing backend: every span, once it ends, is one JSON line (OpenTelemetry's
/// field names: `traceId`, `spanId`, `parentSpanId`, `name`, start and end in Unix nanoseconds,
/// `attributes`, `events`, `links`, `status`) on the output `--traces` names. Readable with `jq`,
/// no collector needed; a real deployment bootstraps swift-otel's OTLP exporter in its place,
/// and TaskFlow's spans do not change.
///
/// Contexts travel as W3C trace context (`traceparent`), so a stored job run by a worker links
/// to the span of the request that submitted it, in this process or another.
struct SpanLines: Tracer {
    typealias Span = LineSpan

    private let output: SpanOutput

    /// Spans written to `output` as they end.
    init(output: SpanOutput) {
        self.output = output
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> LineSpan {
        var context = context()
        let parent = context.spanIdentity
        let identity = SpanIdentity(traceID: parent?.traceID ?? SpanIdentity.randomHex(bytes: 16), spanID: SpanIdentity.randomHex(bytes: 8))
        context.spanIdentity = identity
        return LineSpan(
            name: operationName, context: context, parentSpanID: parent?.spanID, start: instant().nanosecondsSinceEpoch, output: output)
    }

    func activeSpan(identifiedBy context: InstrumentationContext) -> LineSpan? { nil }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let identity = context.spanIdentity else { return }
        injector.inject(identity.traceparent, forKey: SpanIdentity.header, into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: SpanIdentity.header, from: carrier) else { return }
        context.spanIdentity = SpanIdentity(traceparent: header)
    }
}

/// Where ended spans go: one whole line per write, so lines of spans that end together on
/// different threads never interleave.
final class SpanOutput: Sendable {
    private let handle: Mutex<FileHandle>

    /// Standard output for `-`, else the file at `path`, created or appended to.
    init(path: String) throws {
        guard path != "-" else {
            handle = Mutex(FileHandle.standardOutput)
            return
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seekToEnd()
        handle = Mutex(file)
    }

    func write(_ record: SpanRecord) {
        // Every field is a string, a number or an array or object of them: encoding cannot fail.
        guard var line = try? Self.encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        handle.withLock { $0.write(line) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// A span of ``SpanLines``: what it gathers while it runs, written once when it ends.
final class LineSpan: Tracing.Span {
    let context: InstrumentationContext
    private let output: SpanOutput
    private let record: Mutex<SpanRecord>
    private let spanAttributes = Mutex(SpanAttributes())
    private let ended = Atomic(false)

    fileprivate init(name: String, context: InstrumentationContext, parentSpanID: String?, start: UInt64, output: SpanOutput) {
        self.context = context
        self.output = output
        // A span always has an identity: the tracer gave it one before making it.
        let identity = context.spanIdentity ?? SpanIdentity(traceID: "", spanID: "")
        record = Mutex(SpanRecord(
            traceId: identity.traceID, spanId: identity.spanID, parentSpanId: parentSpanID, name: name, startTimeUnixNano: start))
    }

    var operationName: String {
        get { record.withLock { $0.name } }
        set { record.withLock { $0.name = newValue } }
    }

    var attributes: SpanAttributes {
        get { spanAttributes.withLock { $0 } }
        set { spanAttributes.withLock { $0 = newValue } }
    }

    var isRecording: Bool { !ended.load(ordering: .relaxed) }

    func setStatus(_ status: SpanStatus) {
        record.withLock { $0.status = SpanRecord.Status(code: status.code == .ok ? "ok" : "error", message: status.message) }
    }

    func addEvent(_ event: SpanEvent) {
        record.withLock { $0.events.append(SpanRecord.Event(name: event.name, attributes: SpanRecord.values(of: event.attributes))) }
    }

    func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        var values = SpanRecord.values(of: attributes)
        values["exception.message"] = "\(error)"
        record.withLock { $0.events.append(SpanRecord.Event(name: "exception", attributes: values)) }
    }

    func addLink(_ link: SpanLink) {
        guard let target = link.context.spanIdentity else { return }
        record.withLock { $0.links.append(SpanRecord.Link(traceId: target.traceID, spanId: target.spanID)) }
    }

    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        let attributes = SpanRecord.values(of: self.attributes)
        let finished = record.withLock { record in
            record.endTimeUnixNano = instant().nanosecondsSinceEpoch
            record.attributes = attributes
            return record
        }
        output.write(finished)
    }
}

/// One ended span, as written.
struct SpanRecord: Encodable, Sendable {
    struct Status: Encodable, Sendable { let code: String; let message: String? }
    struct Event: Encodable, Sendable { let name: String; let attributes: [String: String] }
    struct Link: Encodable, Sendable { let traceId: String; let spanId: String }

    let traceId: String
    let spanId: String
    let parentSpanId: String?
    var name: String
    let startTimeUnixNano: UInt64
    var endTimeUnixNano: UInt64 = 0
    var attributes: [String: String] = [:]
    var events: [Event] = []
    var links: [Link] = []
    var status: Status?

    /// Attribute values as text: the line is for people and `jq`, not for typed queries.
    static func values(of attributes: SpanAttributes) -> [String: String] {
        var values: [String: String] = [:]
        attributes.forEach { key, value in values[key] = value.text }
        return values
    }
}

extension SpanAttribute {
    fileprivate var text: String {
        switch self {
        case .int32(let value): "\(value)"
        case .int64(let value): "\(value)"
        case .double(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .string(let value): value
        case .stringConvertible(let value): value.description
        default: "\(self)"
        }
    }
}

/// A span's place in its trace, kept in the context and carried as W3C `traceparent`.
struct SpanIdentity: Sendable {
    static let header = "traceparent"

    let traceID: String
    let spanID: String

    init(traceID: String, spanID: String) {
        self.traceID = traceID
        self.spanID = spanID
    }

    /// `00-<trace>-<span>-<flags>`; nil for anything else, which then starts a new trace.
    init?(traceparent: String) {
        let parts = traceparent.split(separator: "-")
        guard parts.count == 4, parts[1].count == 32, parts[2].count == 16,
            parts[1].allSatisfy(\.isHexDigit), parts[2].allSatisfy(\.isHexDigit)
        else { return nil }
        self.init(traceID: String(parts[1]), spanID: String(parts[2]))
    }

    var traceparent: String { "00-\(traceID)-\(spanID)-01" }

    static func randomHex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}

extension InstrumentationContext {
    fileprivate var spanIdentity: SpanIdentity? {
        get { self[SpanIdentityKey.self] }
        set { self[SpanIdentityKey.self] = newValue }
    }
}

private enum SpanIdentityKey: InstrumentationContextKey {
    typealias Value = SpanIdentity
}
