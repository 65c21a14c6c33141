#if Postgres
import Foundation
import Synchronization
import TaskFlowPostgres
import TaskFlowStore
import TaskFlowSupport

/// A worker process of the PostgreSQL benchmark: `TaskFlowBenchmarks postgres-worker SIDE
/// WORKERS` with the database's URL in `TASKFLOW_BENCH_WORKER_URL`, SIDE being `taskflow` (a
/// `JobStore.postgres` with WORKERS workers) or `raw` (``RawPostgresWorkers``). The coordinator
/// drives it on its standard input and output: it prints `ready` once connected, starts its
/// workers at `go`, stops them at `stop` (or at the end of its input), then prints `latencies`
/// and each job's claim → start time in nanoseconds. A failure ends it at once with `error …`.
enum PostgresBenchWorker {
    static let command = "postgres-worker"
    /// Where the coordinator puts the URL (never on the command line: it may hold a password).
    static let urlVariable = "TASKFLOW_BENCH_WORKER_URL"

    /// Runs the process as told by `arguments` (those after the command); the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let workers = Int(arguments[1]), workers >= 1,
              let url = ProcessInfo.processInfo.environment[urlVariable]
        else {
            print("usage: \(urlVariable)=URL TaskFlowBenchmarks \(command) taskflow|raw WORKERS")
            return 2
        }
        do {
            let latencies = try await arguments[0] == "raw"
                ? runRaw(url: url, workers: workers) : runStore(url: url, workers: workers)
            print("latencies " + latencies.map { String(Int64(nanoseconds($0))) }.joined(separator: " "))
            return 0
        } catch {
            print("error \(error)")
            return 1
        }
    }

    private static func runStore(url: String, workers: Int) async throws -> [Duration] {
        let store = try await JobStore.postgres(url: url)
        let latencies = Protected<[Duration]>([])
        store.register(PostgresBenchJob.self, retry: .never) { _, attempt in
            let waited = ContinuousClock.now - attempt.claimedAt
            latencies.withLock { $0.append(waited) }
            return .success
        }
        await handshake()
        try await store.start(workers: workers)
        await waitForStop()
        await store.stop()
        return latencies.withLock { $0 }
    }

    private static func runRaw(url: String, workers: Int) async throws -> [Duration] {
        let raw = try RawPostgresWorkers(url: url, maxConnections: 8)
        defer { raw.shutdown() }
        let stop = StopSignal()
        await handshake()
        let run = Task { try await raw.run(workers: workers, owner: "raw \(getpid())") { stop.isRaised } }
        // The run ends at `stop`, or on its own when it fails: then the process says so and ends
        // at once, which the coordinator sees, instead of waiting for a `stop` that never helps.
        Task {
            await waitForStop()
            stop.raise()
        }
        return try await run.value
    }

    /// Raised at `stop`, read by the raw workers between batches.
    private final class StopSignal: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func raise() { raised.store(true, ordering: .relaxed) }
    }

    /// Says `ready`, then waits for `go`.
    private static func handshake() async {
        print("ready")
        fflush(nil)  // all streams: the coordinator waits for this line, and a pipe is block-buffered
        _ = await nextLine()
    }

    /// Waits for `stop` or the end of the input.
    private static func waitForStop() async {
        while let line = await nextLine(), line != "stop" {}
    }

    /// The next line of standard input, read off the cooperative pool (a blocking read there
    /// would hold one of its few threads); nil at its end.
    private static func nextLine() async -> String? {
        await offThePool { readLine() }
    }
}
#endif
