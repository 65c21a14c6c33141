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
        #expect(await eventually(within: 30) { !server.isRunning }, "drained within the grace and a bound")
        #expect(server.status == 0)
        // The pipe may still hold the last lines when the process is gone: wait for them too.
        #expect(await eventually { server.errors.contains("drained: no flow live, the workers stopped") }, "\(server.errors)")
        #expect(server.errors.contains("shutting down: no new flows or jobs"), "\(server.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("jobs.sqlite").path))
    }

    @Test func aBadFlagIsOneLineAndExitTwo() async throws {
        let server = try RunningExample(["--grace=-3"])
        #expect(await eventually { !server.isRunning })
        #expect(server.status == 2)
        #expect(await eventually { server.errors.hasSuffix("\n") })
        #expect(server.errors == "server-example: --grace must be 0 seconds or more, not -3.0 (see 'server-example --help')\n")
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
