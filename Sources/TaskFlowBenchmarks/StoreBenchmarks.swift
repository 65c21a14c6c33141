import Foundation
import GRDB
import TaskFlowStore
import TaskFlowSupport

/// The durable job store's figures, each beside raw GRDB doing the same SQL statements by hand on
/// the same kind of file (same table, indexes, WAL, `synchronous = NORMAL`) in the same run:
///
/// | figure                 | TaskFlowStore                                            | raw GRDB baseline                                                        |
/// |------------------------|----------------------------------------------------------|--------------------------------------------------------------------------|
/// | submit, one at a time  | `store.submit(job)` awaited in a loop                    | encode the job, one `INSERT` per awaited `pool.write`                    |
/// | submit, batched        | `store.submit(contentsOf:)`, 1,000 jobs per call         | encode, 1,000 cached `INSERT`s per `pool.write`                          |
/// | no-op jobs, 4 workers  | `start(workers: 4)` until the table is empty             | 4 tasks: claim 64 with `UPDATE … RETURNING`, decode, `DELETE` each, one write per batch |
/// | claim → done latency   | `attempt.claimedAt` → the `succeeded` event received     | before the claim write → after the delete write                           |
/// | memory                 | heap and RSS after each round of jobs processed          | (info: the same process before the first round)                           |
///
/// The store's latency includes delivering the event to an observer task; the raw loop reads the
/// clock inline, so that row is slightly in the raw side's favour.
@concurrent
func runStoreBenchmarks() async {
    var table = ResultTable(title: "TaskFlowStore (\(buildConfiguration), SQLite file in WAL mode; raw GRDB baselines in the same run)")
    do {
        let scratch = try StoreScratch()
        defer { scratch.remove() }
        try await benchmarkSubmitOne(&table, scratch)
        try await benchmarkSubmitBatched(&table, scratch)
        try await benchmarkEndToEnd(&table, scratch)
        try await benchmarkStoreMemory(&table, scratch)
    } catch {
        print("store benchmarks stopped early: \(error)")
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
}

/// The no-op job every store benchmark runs.
private struct BenchJob: StoredJob {
    static let kind = "bench"
    let n: Int
}

private enum StoreWorkload {
    static let submitOne = 5_000
    static let submitBatched = 100_000
    static let batch = 1_000
    static let endToEnd = 100_000
    static let latencyJobs = 20_000
    static let workers = 4
    /// Jobs per memory round, and rounds: 1,000,000 jobs processed in all.
    static let memoryRound = 200_000
    static let memoryRounds = 5
}

private func storeProgress(_ what: String) { print("· store: \(what)…") }

private func ratioRow(
    _ table: inout ResultTable, _ figure: String, store: Double, raw: Double, unit: String
) {
    let ratio = store / raw
    table.add(
        figure, taskFlow: formatRate(store, unit: unit), baseline: formatRate(raw, unit: unit) + " (raw GRDB)",
        ratio: formatRatio(ratio), target: "≥ 0.33× raw", verdict: ratio >= 0.33 ? .met : .missed)
}

// MARK: - Submitting

private func benchmarkSubmitOne(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    storeProgress("submit one at a time")
    let count = StoreWorkload.submitOne
    let store = try JobStore(path: scratch.newPath())
    let storeTime = try await measure {
        for n in 0..<count { try await store.submit(BenchJob(n: n)) }
    }
    let raw = try RawQueue(path: scratch.newPath())
    let rawTime = try await measure {
        for n in 0..<count { try await raw.insert([BenchJob(n: n)]) }
    }
    ratioRow(&table, "submit one at a time (\(count))", store: perSecond(count, storeTime), raw: perSecond(count, rawTime), unit: "jobs")
}

private func benchmarkSubmitBatched(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    storeProgress("submit batched")
    let count = StoreWorkload.submitBatched
    let store = try JobStore(path: scratch.newPath())
    let storeTime = try await measure { try await submitInBatches(count, to: store) }
    let raw = try RawQueue(path: scratch.newPath())
    let rawTime = try await measure {
        for start in stride(from: 0, to: count, by: StoreWorkload.batch) {
            try await raw.insert((start..<start + StoreWorkload.batch).map(BenchJob.init))
        }
    }
    ratioRow(
        &table, "submit batched (\(StoreWorkload.batch) per call)", store: perSecond(count, storeTime),
        raw: perSecond(count, rawTime), unit: "jobs")
}

private func submitInBatches(_ count: Int, to store: JobStore) async throws {
    for start in stride(from: 0, to: count, by: StoreWorkload.batch) {
        try await store.submit(contentsOf: (start..<min(start + StoreWorkload.batch, count)).map(BenchJob.init))
    }
}

// MARK: - Running

private func benchmarkEndToEnd(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    storeProgress("no-op jobs end to end, \(StoreWorkload.workers) workers")
    let count = StoreWorkload.endToEnd
    let path = scratch.newPath()
    let store = try JobStore(path: path)
    store.register(BenchJob.self, retry: .never) { _, _ in .success }
    try await submitInBatches(count, to: store)
    let storeTime = try await measure {
        try await store.start(workers: StoreWorkload.workers)
        try await waitUntilEmpty(path)
    }
    await store.stop()

    let raw = try RawQueue(path: scratch.newPath())
    try await raw.insert((0..<count).map(BenchJob.init))
    let latencies = Protected<[Duration]>([])
    let rawTime = try await measure {
        try await withThrowingTaskGroup(of: [Duration].self) { group in
            for _ in 0..<StoreWorkload.workers { group.addTask { try await raw.drain() } }
            for try await worker in group { latencies.withLock { $0 += worker } }
        }
    }
    ratioRow(
        &table, "no-op jobs, \(StoreWorkload.workers) workers (\(count))", store: perSecond(count, storeTime),
        raw: perSecond(count, rawTime), unit: "jobs")

    let storeLatency = Samples(try await storeLatencies(scratch))
    let rawLatency = Samples(latencies.withLock { $0 })
    for (label, p) in [("p50", 50.0), ("p99", 99.0)] {
        let value = storeLatency.percentile(p)
        let baseline = rawLatency.percentile(p)
        table.add(
            "claim → done \(label)", taskFlow: formatNanoseconds(value), baseline: formatNanoseconds(baseline) + " (raw GRDB)",
            ratio: formatRatio(value / baseline), target: "info", verdict: .info)
    }
}

/// Claim-to-done latencies of `latencyJobs` no-op jobs, from the store's own events.
private func storeLatencies(_ scratch: StoreScratch) async throws -> [Duration] {
    let count = StoreWorkload.latencyJobs
    let store = try JobStore(path: scratch.newPath())
    store.register(BenchJob.self, retry: .never) { _, _ in .success }
    try await submitInBatches(count, to: store)
    let events = store.changes
    let observer = Task {
        var claimed: [StoredJobID: ContinuousClock.Instant] = [:]
        var latencies: [Duration] = []
        for await event in events {
            switch event {
            case .started(let id, _, let attempt): claimed[id] = attempt.claimedAt
            case .succeeded(let id, _): if let start = claimed.removeValue(forKey: id) { latencies.append(.now - start) }
            default: break
            }
            if latencies.count == count { break }
        }
        return latencies
    }
    try await store.start(workers: StoreWorkload.workers)
    let latencies = await observer.value
    await store.stop()
    return latencies
}

// MARK: - Memory

private func benchmarkStoreMemory(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    let rounds = StoreWorkload.memoryRounds
    let perRound = StoreWorkload.memoryRound
    storeProgress("memory over \(rounds * perRound) jobs processed")
    let path = scratch.newPath()
    let store = try JobStore(path: path)
    store.register(BenchJob.self, retry: .never) { _, _ in .success }
    try await store.start(workers: StoreWorkload.workers)
    let before = (heap: MemoryProbe.allocatedBytes() ?? 0, rss: residentBytes())
    var afterFirst = before
    for round in 1...rounds {
        try await submitInBatches(perRound, to: store)
        try await waitUntilEmpty(path)
        if round == 1 { afterFirst = (MemoryProbe.allocatedBytes() ?? 0, residentBytes()) }
    }
    let after = (heap: MemoryProbe.allocatedBytes() ?? 0, rss: residentBytes())
    await store.stop()
    let growth = Double(after.heap - afterFirst.heap)
    table.add(
        "heap growth, round 2…\(rounds) (\(perRound) jobs each)", taskFlow: formatBytes(growth),
        baseline: formatBytes(Double(afterFirst.heap - before.heap)) + " (round 1)", ratio: "—",
        target: "< 1 MB (flat)", verdict: growth < 1_000_000 ? .met : .missed)
    table.add(
        "RSS before → after \(rounds * perRound) jobs", taskFlow: formatBytes(Double(after.rss)),
        baseline: formatBytes(Double(before.rss)) + " (before)", ratio: formatRatio(Double(after.rss) / Double(before.rss)),
        target: "info", verdict: .info)
}

/// Resident set size of this process, from `/proc/self/statm` (0 where there is none).
private func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

// MARK: - Support

/// Polls the table's row count (cheap: an index count) until it is zero.
private func waitUntilEmpty(_ path: String) async throws {
    var configuration = Configuration()
    configuration.readonly = true
    let monitor = try DatabaseQueue(path: path, configuration: configuration)
    while try await monitor.read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM job") ?? 0 }) > 0 {
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Files for one benchmark run, removed at the end.
final class StoreScratch: Sendable {
    let directory: URL
    private let counter = Protected(0)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func newPath() -> String {
        let n = counter.withLock { value in
            value += 1
            return value
        }
        return directory.appendingPathComponent("store-\(n).sqlite").path
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The baseline: the store's statements written by hand on a `DatabasePool`.
private struct RawQueue: Sendable {
    let pool: DatabasePool

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        pool = try DatabasePool(path: path, configuration: configuration)
        // The store's table and indexes, so that every statement costs the same on both sides.
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE job (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, payload BLOB NOT NULL,
                    state TEXT NOT NULL, retries INTEGER NOT NULL DEFAULT 0, due_at REAL,
                    claim INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, recovered INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT, submitted_at REAL NOT NULL, failed_at REAL);
                CREATE INDEX job_by_state ON job(state);
                CREATE INDEX job_by_due ON job(state, due_at);
                """)
        }
    }

    func insert(_ jobs: [BenchJob]) async throws {
        let encoder = JSONEncoder()
        let payloads = try jobs.map { try encoder.encode($0) }
        let now = Date().timeIntervalSince1970
        try await pool.write { @Sendable db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO job (kind, payload, state, submitted_at) VALUES (?, ?, 'pending', ?)")
            for payload in payloads { try statement.execute(arguments: [BenchJob.kind, payload, now]) }
        }
    }

    /// One worker: claims 64 at a time until none is left; returns each job's claim → done time.
    func drain() async throws -> [Duration] {
        var latencies: [Duration] = []
        while true {
            let claimedAt = ContinuousClock.now
            let lease = Date().timeIntervalSince1970 + 30
            // Rows are not Sendable: copy the columns out inside the write, as the store does.
            let rows = try await pool.write { db -> [(id: Int64, payload: Data, claim: Int64)] in
                try Row.fetchAll(db.cachedStatement(sql: """
                    UPDATE job SET state = 'running', lease_owner = 'raw', due_at = ?, claim = claim + 1
                    WHERE id IN (SELECT id FROM job WHERE state = 'pending' AND kind IN (?) ORDER BY id LIMIT 64)
                    RETURNING id, payload, claim
                    """), arguments: [lease, BenchJob.kind]).map { ($0[0], $0[1], $0[2]) }
            }
            if rows.isEmpty { return latencies }
            let decoder = JSONDecoder()
            let done: [(id: Int64, claim: Int64)] = try rows.map { row in
                _ = try decoder.decode(BenchJob.self, from: row.payload)
                return (row.id, row.claim)
            }
            try await pool.write { @Sendable db in
                let statement = try db.cachedStatement(sql: "DELETE FROM job WHERE id = ? AND claim = ? AND state = 'running'")
                for (id, claim) in done { try statement.execute(arguments: [id, claim]) }
            }
            let finished = ContinuousClock.now
            latencies += Array(repeating: finished - claimedAt, count: rows.count)
        }
    }
}
