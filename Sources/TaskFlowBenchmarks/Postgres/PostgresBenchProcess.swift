#if Postgres
import Foundation

/// One worker process of the PostgreSQL benchmark (``PostgresBenchWorker``), seen from the
/// coordinator: started and connected before any clock runs, then told `go` and `stop`.
/// Blocking pipe reads happen on threads of their own, never on the cooperative pool.
final class PostgresBenchProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle

    /// Starts a worker process for `side` with `workers` workers; returns once it is connected.
    static func start(side: String, url: String, workers: Int) async throws -> PostgresBenchProcess {
        let child = try PostgresBenchProcess(side: side, url: url, workers: workers)
        let first = await offThePool { child.readLine() }
        guard first == "ready" else { throw BenchProcessError.failed(first ?? "exited before it was ready") }
        return child
    }

    private init(side: String, url: String, workers: Int) throws {
        let (stdin, stdout) = (Pipe(), Pipe())
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // The URL goes in the environment, not the arguments: a password in it would be in every
        // local user's `ps`.
        process.arguments = [PostgresBenchWorker.command, side, String(workers)]
        process.environment = ProcessInfo.processInfo.environment.merging([PostgresBenchWorker.urlVariable: url]) { $1 }
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
    }

    /// Whether the process still runs: one that failed ends at once, with its reason on its output.
    var isRunning: Bool { process.isRunning }

    /// Starts its workers.
    func go() throws { try input.write(contentsOf: Data("go\n".utf8)) }

    /// Stops its workers and waits for the process to end; each job's claim → start time.
    /// A process that ended on its own (it failed) is reported with what it said.
    func stop() async throws -> [Duration] {
        // EPIPE, not SIGPIPE (ignored by the coordinator), when it is gone: its output says why.
        try? input.write(contentsOf: Data("stop\n".utf8))
        let line = await offThePool { [self] in
            let text = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").last.map(String.init)
        }
        guard let line, line.hasPrefix("latencies") else { throw BenchProcessError.failed(line ?? "no answer: it was killed or crashed") }
        return line.split(separator: " ").dropFirst().compactMap { Int64($0) }.map { .nanoseconds($0) }
    }

    /// A line of the child's output, read a byte at a time so that nothing past it is taken.
    private func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try? output.read(upToCount: 1), let first = byte.first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }

    /// A step that went wrong, in words.
    enum BenchProcessError: Error, CustomStringConvertible {
        case failed(String)

        var description: String {
            switch self {
            case .failed(let what): what
            }
        }
    }
}

/// Runs blocking `work` on a thread of its own.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
#endif
