import ArgumentParser
import CoreMetrics
import Foundation
import Glibc
import Logging
import Prometheus
import ServiceLifecycle
import TaskFlow
import TaskFlowConsole
import TaskFlowStore
import Tracing
import UnixSignals

/// The example's command line, and the server it runs.
struct ServerExample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-example",
        abstract: "TaskFlow in a server: the store's workers, flows, the console and Prometheus metrics in a ServiceGroup.")

    @Option(help: ArgumentHelp("Where the job store (jobs.sqlite) lives; a new temporary folder by default.", valueName: "path"))
    var folder: String?

    @Option(help: ArgumentHelp("The port of http://127.0.0.1:PORT/metrics; 0 picks a free one.", valueName: "port"))
    var port = 9464

    @Option(help: ArgumentHelp("How long live flows may finish at a graceful shutdown before they roll back.", valueName: "seconds"))
    var grace = 10.0

    @Option(help: ArgumentHelp("The least level logged: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    @Option(help: ArgumentHelp("Write every span, as it ends, as a JSON line to this file ('-': stdout).", valueName: "path"))
    var traces: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, not \(port)") }
        guard grace.isFinite, grace >= 0 else { throw ValidationError("--grace must be 0 seconds or more, not \(grace)") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \(logLevel) is not a level") }
    }

    /// Parses the command line and serves; a bad flag is one line on stderr and exit 2, a failure
    /// to start one line and exit 1 (ArgumentParser's own `main` exits 64 for a bad flag).
    static func launch() async {
        let command: ServerExample
        do {
            command = try parse()
        } catch {
            if exitCode(for: error) == .success {
                FileHandle.standardOutput.write(Data((fullMessage(for: error) + "\n").utf8))
                Glibc.exit(0)
            }
            let problem = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            FileHandle.standardError.write(Data("server-example: \(problem) (see 'server-example --help')\n".utf8))
            Glibc.exit(2)
        }
        do {
            try await command.serve()
        } catch {
            FileHandle.standardError.write(Data("server-example: \(error)\n".utf8))
            Glibc.exit(1)
        }
    }

    /// Bootstraps logs and metrics, opens the store, recovers durable flows, then runs the
    /// services until a signal, and returns once they drained.
    private func serve() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info  // Checked by validate().
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        if let traces {
            InstrumentationSystem.bootstrap(SpanLines(output: try SpanOutput(path: traces)))
        }
        let logger = Logger(label: "server-example")

        let folder = try self.folder ?? Self.temporaryFolder()
        var options = JobStoreOptions()
        options.logger = Logger(label: "taskflow.store")
        let store = try JobStore(path: folder + "/jobs.sqlite", options: options)
        let manager = TaskFlowManager(state: Ledger(), logger: Logger(label: "taskflow"))
        let flows = DurableFlows(manager: manager, store: store)
        Ledger.register(on: store, flows: flows, logger: logger)
        // Before any new durable flow: what a crash of an earlier run left half-applied.
        let recovered = try await flows.recover()
        let console = ConsoleServer(manager: manager, store: store, title: "server-example", logger: Logger(label: "taskflow.console"))
        let metrics = try await MetricsEndpoint.bind(host: "127.0.0.1", port: port, registry: registry, logger: logger)
        let traffic = Traffic(manager: manager, flows: flows, store: store, grace: .seconds(grace), logger: logger)

        // Shut down in reverse order: the traffic stops, the manager drains, the workers stop,
        // and only then the metrics and the console, so that both show the drain to the end.
        let group = ServiceGroup(
            services: [console, metrics, store.service(workers: 4), manager.service(grace: .seconds(grace)), traffic],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        announce(store: store, folder: folder, metrics: metrics, console: console, recovered: recovered.count)
        let running = Task { try await group.run() }
        let secondSignal = Task { await Self.cancel(running, atSecondSignalLogging: logger) }
        defer { secondSignal.cancel() }
        try await running.value
        logger.notice("drained: no flow live, the workers stopped; bye")
    }

    /// The group turns the first SIGTERM or SIGINT into a graceful shutdown; the second one
    /// cancels it ("now": flows still roll back, the workers wait at most their bound). The
    /// configuration cannot say this: its graceful and cancellation signals must differ.
    private static func cancel(_ running: Task<Void, any Error>, atSecondSignalLogging logger: Logger) async {
        var seen = 0
        for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
            seen += 1
            guard seen == 2 else { continue }
            logger.warning("second \(signal): stopping now (rollbacks still run)")
            running.cancel()
        }
    }

    /// What a person needs to watch and stop the server, on stdout.
    private func announce(store: JobStore, folder: String, metrics: MetricsEndpoint, console: ConsoleServer, recovered: Int) {
        let pid = ProcessInfo.processInfo.processIdentifier
        // Written at once (not through stdout's buffer): a supervisor waits for these lines.
        FileHandle.standardOutput.write(Data("""
            server-example: pid \(pid), store \(folder)/jobs.sqlite\(recovered > 0 ? ", \(recovered) durable flow(s) recovered" : "")
              metrics:  curl http://127.0.0.1:\(metrics.port)/metrics
              attach:   swift run taskflow attach \(pid)     (console \(console.path))
              traces:   \(traces.map { "JSON lines to \($0 == "-" ? "stdout" : $0)" } ?? "none exported (--traces PATH writes them)")
              stop:     kill -TERM \(pid)   drains (grace \(grace) s); a second signal stops at once

            """.utf8))
    }

    private static func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("server-example-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
