#if Postgres
import Foundation
import Logging
import PostgresNIO
import TaskFlowPostgres
import TaskFlowStore

/// The job store on PostgreSQL beside raw postgres-nio running the very same statements
/// (``PostgresStatements``) in the same run, on the server at `TASKFLOW_BENCH_POSTGRES_URL`
/// (else `TASKFLOW_TEST_POSTGRES_URL`; the password from `PGPASSWORD` or `~/.pgpass`):
///
/// | figure                              | TaskFlowPostgres                                   | raw postgres-nio baseline                                |
/// |-------------------------------------|----------------------------------------------------|----------------------------------------------------------|
/// | submit, one at a time / 8 callers   | `submit(_:)`, one job per call, 1 or 8 callers at once | the same statement, one job per call, autocommitted (the fewest round trips a submit can take) |
/// | submit, batched                     | `submit(contentsOf:)`, 1,000 jobs per call          | the same `INSERT … unnest`, one transaction per 1,000     |
/// | no-op jobs/s, W workers, P processes| P processes, each `start(workers: W / P)`, until the table is empty | P processes, W / P tasks each: claim 64, decode, fenced `DELETE`s in one transaction (``RawPostgresWorkers``) |
/// | claim → start p50 / p99             | `attempt.claimedAt` → the executor runs             | before the claim transaction → the job runs               |
///
/// Processes are started and connected before the clock starts; the clock stops when a
/// separate connection sees the table empty (polled every 10 ms). `TASKFLOW_BENCH_POSTGRES_JOBS`
/// sets the jobs per run (default 20,000; CI runs a small debug smoke test). Returns false if a
/// step failed (said on standard output).
@concurrent
func runPostgresBenchmarks() async -> Bool {
    let environment = ProcessInfo.processInfo.environment
    guard let url = (environment["TASKFLOW_BENCH_POSTGRES_URL"] ?? environment["TASKFLOW_TEST_POSTGRES_URL"]).flatMap({ $0.isEmpty ? nil : $0 })
    else {
        print("postgres: skipped: set TASKFLOW_BENCH_POSTGRES_URL (or TASKFLOW_TEST_POSTGRES_URL) to a database the benchmark may empty")
        return true
    }
    // A worker process that failed closes its pipe: writing to it must fail, not kill us.
    signal(SIGPIPE, SIG_IGN)
    let jobs = environment["TASKFLOW_BENCH_POSTGRES_JOBS"].flatMap { Int($0) }.map { max($0, 1) } ?? 20_000
    var table = ResultTable(title: "TaskFlowPostgres (\(buildConfiguration), PostgreSQL at \((try? PostgresURL(url).redacted) ?? "?"); raw postgres-nio baselines in the same run)")
    var succeeded = true
    do {
        let bench = try await PostgresBench(url: url, jobs: jobs)
        defer { bench.shutdown() }
        for callers in [1, 8] { try await bench.submittingOneByOne(&table, callers: callers) }
        try await bench.submitting(&table)
        for (processes, workers) in PostgresBench.configurations {
            try await bench.running(&table, processes: processes, workersEach: workers)
        }
    } catch {
        print("postgres benchmarks stopped early: \(error)")
        succeeded = false
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
    return succeeded
}

/// The workload and the steps of the PostgreSQL benchmark.
private struct PostgresBench {
    /// (processes, workers per process): 1, 4 and 16 workers, across up to 4 processes.
    static let configurations = [(1, 1), (4, 1), (4, 4)]
    static let batch = 1_000
    /// The issue's target: at least half the raw throughput.
    static let target = 0.5

    let url: String
    /// Jobs per run.
    let jobs: Int
    let store: JobStore
    let raw: RawPostgresWorkers

    init(url: String, jobs: Int) async throws {
        self.url = url
        self.jobs = jobs
        store = try await JobStore.postgres(url: url)  // creates the tables
        raw = try RawPostgresWorkers(url: url, maxConnections: 8)
    }

    func shutdown() { raw.shutdown() }

    func submitting(_ table: inout ResultTable) async throws {
        progress("submit batched")
        try await empty()
        let storeTime = try await measure {
            for range in batches { try await store.submit(contentsOf: range.map(PostgresBenchJob.init)) }
        }
        try await empty()
        let rawTime = try await measure { try await fill() }
        add(&table, "submit batched (\(Self.batch) per call)", store: perSecond(jobs, storeTime), raw: perSecond(jobs, rawTime))
    }

    /// One job per call, from `callers` callers at once (a server's requests each submitting
    /// one): at most 4,000 jobs, since each is a round trip or more.
    func submittingOneByOne(_ table: inout ResultTable, callers: Int) async throws {
        let count = min(jobs, 4_000)
        progress("submit one at a time, \(callers) caller(s)")
        try await empty()
        let storeTime = try await measure {
            try await Self.spread(count, over: callers) { _ = try await store.submit(PostgresBenchJob(n: $0)) }
        }
        try await empty()
        let rawTime = try await measure { try await Self.spread(count, over: callers) { try await raw.insertOne(PostgresBenchJob(n: $0)) } }
        let figure = callers == 1 ? "submit one at a time" : "submit one at a time, \(callers) callers"
        add(&table, "\(figure) (\(count))", store: perSecond(count, storeTime), raw: perSecond(count, rawTime))
    }

    /// Runs `body` for 0..<count, from `callers` tasks each taking every `callers`-th number.
    private static func spread(_ count: Int, over callers: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                group.addTask { for n in stride(from: caller, to: count, by: callers) { try await body(n) } }
            }
            try await group.waitForAll()
        }
    }

    func running(_ table: inout ResultTable, processes: Int, workersEach: Int) async throws {
        let label = "\(processes * workersEach) worker\(processes * workersEach == 1 ? "" : "s"), \(processes) process\(processes == 1 ? "" : "es")"
        progress("no-op jobs, \(label)")
        let store = try await drain(side: "taskflow", processes: processes, workersEach: workersEach)
        let raw = try await drain(side: "raw", processes: processes, workersEach: workersEach)
        add(&table, "no-op jobs, \(label) (\(jobs))", store: store.rate, raw: raw.rate)
        // Whether more workers could have helped: how busy the machine (server included) was.
        table.add(
            "  machine CPU busy", taskFlow: formatPercent(store.busy), baseline: formatPercent(raw.busy) + " (raw)", ratio: "—",
            target: "info", verdict: .info)
        let (storeLatency, rawLatency) = (store.latencies, raw.latencies)
        for (name, p) in [("p50", 50.0), ("p99", 99.0)] {
            let (value, baseline) = (storeLatency.percentile(p), rawLatency.percentile(p))
            table.add(
                "  claim → start \(name)", taskFlow: formatNanoseconds(value), baseline: formatNanoseconds(baseline) + " (raw)",
                ratio: formatRatio(value / baseline), target: "info", verdict: .info)
        }
    }

    /// Fills the table, starts the processes, and times them emptying it: jobs per second, the
    /// share of the machine's CPU time that was busy meanwhile, each job's claim → start time.
    private func drain(side: String, processes: Int, workersEach: Int) async throws -> (rate: Double, busy: Double, latencies: Samples) {
        try await empty()
        try await fill()
        var children: [PostgresBenchProcess] = []
        for _ in 0..<processes {
            children.append(try await PostgresBenchProcess.start(side: side, url: url, workers: workersEach))
        }
        let before = CPUTimes.now()
        let time = try await measure {
            for child in children { try child.go() }
            try await waitUntilEmpty(children)
        }
        let busy = CPUTimes.now().busyShare(since: before)
        var latencies: [Duration] = []
        for child in children { latencies += try await child.stop() }
        return (perSecond(jobs, time), busy, Samples(latencies))
    }

    /// The benchmark's jobs, inserted the raw way (untimed outside ``submitting(_:)``).
    private func fill() async throws {
        for range in batches { try await raw.insert(range.map(PostgresBenchJob.init)) }
    }

    /// The run's job numbers, ``batch`` at a time.
    private var batches: [Range<Int>] {
        stride(from: 0, to: jobs, by: Self.batch).map { $0..<min($0 + Self.batch, jobs) }
    }

    /// No job and no worker process left from an earlier step.
    private func empty() async throws {
        try await raw.client.withConnection { connection in
            try await connection.query("TRUNCATE taskflow_job, taskflow_worker", logger: Self.logger)
            try await connection.query("VACUUM ANALYZE taskflow_job", logger: Self.logger)
        }
    }

    /// Polls until the table is empty; throws (with what the process said) if one of
    /// `children` ended before, or after ``timeLimit``, so that a failure never hangs a run.
    private func waitUntilEmpty(_ children: [PostgresBenchProcess]) async throws {
        let deadline = ContinuousClock.now + Self.timeLimit
        while try await count() > 0 {
            if let ended = children.first(where: { !$0.isRunning }) {
                var said = ""
                do { _ = try await ended.stop() } catch { said = " (\(error))" }
                throw PostgresBenchProcess.BenchProcessError.failed("a worker process ended before the jobs did\(said)")
            }
            guard ContinuousClock.now < deadline else {
                throw PostgresBenchProcess.BenchProcessError.failed("jobs left after \(Self.timeLimit)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// How long one run may take: the slowest seen, 20,000 jobs in a debug build, took 15 s.
    private static let timeLimit = Duration.seconds(600)

    private func count() async throws -> Int {
        try await raw.client.withConnection { connection in
            var count = 0
            for try await found in try await connection.query("SELECT count(*) FROM taskflow_job", logger: Self.logger).decode(Int64.self) {
                count = Int(found)
            }
            return count
        }
    }

    private func add(_ table: inout ResultTable, _ figure: String, store: Double, raw: Double) {
        let ratio = store / raw
        table.add(
            figure, taskFlow: formatRate(store, unit: "jobs"), baseline: formatRate(raw, unit: "jobs") + " (raw)",
            ratio: formatRatio(ratio), target: "≥ \(Self.target)× raw", verdict: ratio >= Self.target ? .met : .missed)
    }

    private func formatPercent(_ share: Double) -> String { format(share * 100, digits: 0) + "%" }

    private func progress(_ what: String) { print("· postgres: \(what)…") }

    private static let logger = Logger(label: "taskflow.bench", factory: { _ in SwiftLogNoOpLogHandler() })
}
#endif
