#if Postgres
import Foundation
import Logging
import PostgresNIO
import Synchronization
import TaskFlowPostgres
import TaskFlowStore

/// The baseline: the store's hot-path statements (``PostgresStatements``: promote, recover,
/// claim with `FOR UPDATE SKIP LOCKED`, fenced `DELETE`) run by hand on a postgres-nio pool of
/// the same size, with the store's largest claim batch from the first claim on, and nothing the
/// store adds: no deadline per request, no events, no held-job set, no heartbeat, no adaptive
/// batches, no executor registry.
struct RawPostgresWorkers: Sendable {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private static let logger = Logger(label: "taskflow.bench.raw", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The store's ``JobStoreOptions/maxClaimBatch`` default.
    static let batch = JobStoreOptions().maxClaimBatch

    init(url: String, maxConnections: Int) throws {
        let client = PostgresClient(configuration: try PostgresURL(url).clientConfiguration(maxConnections: maxConnections))
        self.client = client
        runner = Task { await client.run() }
    }

    /// Inserts `jobs` in one transaction, with the store's `INSERT … unnest` statement.
    func insert(_ jobs: [PostgresBenchJob]) async throws {
        let encoder = JSONEncoder()
        let payloads = try jobs.map { try encoder.encode($0) }
        let kinds = Array(repeating: PostgresBenchJob.kind, count: jobs.count)
        try await client.withTransaction(logger: Self.logger) { connection in
            for try await _ in try await connection.query(
                PostgresStatements.insert(kinds: kinds, payloads: payloads, now: Date()), logger: Self.logger) {}
        }
    }

    /// Inserts one job with the store's statement, autocommitted: one round trip. No wake-up:
    /// the store sends its own after the commit, apart (``WakeUpSender``), and this is the least
    /// a submit can cost.
    func insertOne(_ job: PostgresBenchJob) async throws {
        let payload = try JSONEncoder().encode(job)
        for try await _ in try await client.query(
            PostgresStatements.insert(kinds: [PostgresBenchJob.kind], payloads: [payload], now: Date()), logger: Self.logger) {}
    }

    /// `workers` workers until `isStopping` says so; each job's time from the start of its claim
    /// transaction to its run.
    func run(workers: Int, owner: String, isStopping: @escaping @Sendable () -> Bool) async throws -> [Duration] {
        try await withThrowingTaskGroup(of: [Duration].self) { group in
            for _ in 0..<workers { group.addTask { try await work(owner: owner, isStopping: isStopping) } }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    func shutdown() {
        runner.cancel()
    }

    /// One worker: claim a batch, run each job (decode its payload), delete them all in one
    /// transaction; when the queue is empty, wait the store's default poll interval.
    private func work(owner: String, isStopping: @Sendable () -> Bool) async throws -> [Duration] {
        var latencies: [Duration] = []
        let decoder = JSONDecoder()
        while !isStopping() {
            let claimedAt = ContinuousClock.now
            let jobs = try await claim(owner: owner)
            guard !jobs.isEmpty else {
                try await Task.sleep(for: JobStoreOptions().pollInterval)
                continue
            }
            for job in jobs {
                latencies.append(.now - claimedAt)
                _ = try decoder.decode(PostgresBenchJob.self, from: job.payload)
            }
            try await client.withTransaction(logger: Self.logger) { connection in
                for job in jobs {
                    let resolution = Resolution(job: job, action: .delete)
                    for try await _ in try await connection.query(
                        PostgresStatements.outcome(resolution, now: Date()), logger: Self.logger) {}
                }
            }
        }
        return latencies
    }

    private func claim(owner: String) async throws -> [ClaimedJob] {
        let now = Date()
        return try await client.withTransaction(logger: Self.logger) { connection in
            try await connection.query(PostgresStatements.promoteDue(now: now), logger: Self.logger)
            for try await _ in try await connection.query(PostgresStatements.recoverExpired(now: now), logger: Self.logger) {}
            let rows = try await connection.query(
                PostgresStatements.claimPending(
                    kinds: [PostgresBenchJob.kind], limit: Self.batch, owner: owner, leaseUntil: now + 30),
                logger: Self.logger)
            var jobs: [ClaimedJob] = []
            for try await row in rows {
                let cells = row.makeRandomAccess()
                jobs.append(ClaimedJob(
                    id: StoredJobID(try cells["id"].decode(Int64.self)), kind: try cells["kind"].decode(String.self),
                    payload: try cells["payload"].decode(Data.self), retries: Int(try cells["retries"].decode(Int32.self)),
                    isRecovery: try cells["recovered"].decode(Bool.self), claimToken: try cells["claim"].decode(Int64.self)))
            }
            return jobs.sorted { $0.id < $1.id }
        }
    }
}
#endif
