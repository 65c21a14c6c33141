import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TaskFlowTestSupport
import Testing

/// `server-example` as a person uses it: start it, scrape its metrics, send SIGTERM and watch it
/// drain and exit 0.
@Suite struct ServerExampleTests {
    @Test func itServesPrometheusMetricsAndDrainsOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-example-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RunningExample(["--folder", folder.path, "--port", "0", "--grace", "1"])
        defer { server.kill() }

        #expect(await eventually { server.output.contains("stop:") }, "the start lines: \(server.output)")
        let port = try #require(server.output.firstMatch(of: /127\.0\.0\.1:(\d+)\/metrics/).map { String($0.1) })
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/metrics")))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("# TYPE server_example_flows_submitted counter"), "Prometheus text: \(text)")

        server.signal(SIGTERM)
        #expect(await eventually { !server.isRunning }, "drained (within the grace, and a bound that only catches a hang)")
        #expect(server.status == 0)
        // The pipe may still hold the last lines when the process is gone: wait for them too.
        #expect(await eventually { server.errors.contains("drained: no flow live, the workers stopped") }, "\(server.errors)")
        #expect(server.errors.contains("shutting down: no new flows or jobs"), "\(server.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("jobs.sqlite").path))
    }

    @Test func tracesAreJSONLinesAndAStoredJobLinksToTheSpanThatSubmittedIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-example-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("spans.jsonl").path
        let server = try RunningExample(["--folder", folder.path, "--port", "0", "--grace", "1", "--traces", traces])
        defer { server.kill() }
        #expect(await eventually { server.output.contains("traces:   JSON lines to \(traces)") }, "\(server.output)")

        // A report job (submitted every 600 ms) run by a worker: its span links to the submit's.
        // The two spans, and a flow's, are written by different tasks: wait for all of them.
        var spans: [SpanLine] = []
        func linkedRun() -> SpanLine? {
            spans.first { run in run.name == "report" && run.links.first.map { link in spans.contains { $0.spanId == link.spanId } } == true }
        }
        func completedFlow() -> SpanLine? {
            spans.first { $0.name.hasPrefix("Post batch ") && $0.attributes["taskflow.flow.outcome"] == "completed" }
        }
        let written = await eventually(within: 60) {
            spans = SpanLine.read(traces)
            return linkedRun() != nil && completedFlow() != nil
        }
        try #require(written, "a report's run span, the span it links to, and a completed flow's among \(spans.count) spans")
        let run = try #require(linkedRun())
        let submit = try #require(spans.first { $0.spanId == run.links[0].spanId })
        #expect(submit.name.hasPrefix("Submit report "))
        #expect(submit.traceId == run.links[0].traceId)

        // A flow's span, with the §9 attributes, and its steps as children in the same trace.
        let flow = try #require(completedFlow())
        #expect(flow.attributes["taskflow.flow.access"] == "write")
        #expect(flow.attributes["taskflow.flow.id"] != nil)
        let steps = spans.filter { $0.parentSpanId == flow.spanId }.map(\.name)
        #expect(steps.contains("Validate") && steps.contains("Persist"), "\(steps)")
        #expect(spans.filter { $0.parentSpanId == flow.spanId }.allSatisfy { $0.traceId == flow.traceId })

        server.signal(SIGTERM)
        #expect(await eventually { !server.isRunning })
        #expect(server.status == 0)
    }

    @Test func aBadFlagIsOneLineAndExitTwo() async throws {
        let server = try RunningExample(["--grace=-3"])
        #expect(await eventually { !server.isRunning })
        #expect(server.status == 2)
        #expect(await eventually { server.errors.hasSuffix("\n") })
        #expect(server.errors == "server-example: --grace must be 0 seconds or more, not -3.0 (see 'server-example --help')\n")
    }
}

/// One line of `--traces`: the fields the test reads.
private struct SpanLine: Decodable {
    struct Link: Decodable { let traceId: String; let spanId: String }
    let traceId: String
    let spanId: String
    let parentSpanId: String?
    let name: String
    let attributes: [String: String]
    let links: [Link]

    /// The complete lines written so far (the last one may be half written).
    static func read(_ path: String) -> [SpanLine] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(SpanLine.self, from: Data($0.utf8)) }
    }
}

/// The built `server-example` running, its stdout and stderr collected as they come.
private final class RunningExample: Sendable {
    private let process: Process
    private let outputChunks = Recorder<Data>()
    private let errorChunks = Recorder<Data>()

    init(_ arguments: [String]) throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("server-example")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        Self.collect(output, into: outputChunks)
        Self.collect(errors, into: errorChunks)
        try process.run()
        self.process = process
    }

    /// Records what comes through `pipe` until its end (an empty read), then stops listening.
    private static func collect(_ pipe: Pipe, into chunks: Recorder<Data>) {
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty { handle.readabilityHandler = nil } else { chunks.record(chunk) }
        }
    }

    var output: String { String(decoding: outputChunks.all.joined(), as: UTF8.self) }
    var errors: String { String(decoding: errorChunks.all.joined(), as: UTF8.self) }
    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }

    func signal(_ signal: Int32) { Glibc.kill(process.processIdentifier, signal) }

    /// Ends it if a failed expectation left it running.
    func kill() { if process.isRunning { signal(SIGKILL) } }
}
