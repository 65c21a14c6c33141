import Foundation
import Logging
import PostgresNIO
import TaskFlowStore

/// ``TaskFlowStore/JobStoreBackend`` on PostgreSQL, for many worker processes on many hosts
/// sharing one queue.
///
/// Every method is one transaction on a pooled connection. Claims take rows with
/// `FOR UPDATE SKIP LOCKED`, so concurrent workers never wait for each other nor get the same
/// job; the claim token (`claim`) fences a late outcome from a worker whose lease expired, as on
/// SQLite. Whatever makes a job runnable also sends `NOTIFY taskflow_jobs`, which wakes idle
/// workers in every process (``watchForWork(_:)``): in its transaction (delivered at commit),
/// except a submit's, sent after the commit (``WakeUpSender``).
/// Times are the clients' wall clocks, like SQLite's: hosts must keep them in sync (NTP).
final class PostgresBackend: JobStoreBackend {
    let client: PostgresClient
    /// The server as messages name it (password redacted).
    let server: String
    /// Gives up on requests unanswered within ``JobStoreOptions/requestTimeout``.
    let deadlines: DeadlineWatch
    private let runner: Task<Void, Never>
    /// Wakes idle workers everywhere after a submit committed.
    private let wakeUps: WakeUpSender
    /// Where durable flows recovered from a dead process are told of (``JobStoreOptions/logger``);
    /// postgres-nio's own chatter stays on ``logger``.
    let journalLogger: Logger

    /// The channel every process listens on.
    static let channel = PostgresStatements.channel
    /// postgres-nio logs through swift-log; a library must not print.
    static let logger = Logger(label: "taskflow.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    init(configuration: PostgresClient.Configuration, server: String, deadline: Duration, journalLogger: Logger = .noOp) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
        self.client = client
        self.server = server
        let deadlines = DeadlineWatch(limit: deadline, server: server)
        self.deadlines = deadlines
        self.journalLogger = journalLogger
        // The pool serves requests only while `run()` runs; it ends with this backend.
        runner = Task { await client.run() }
        wakeUps = WakeUpSender { [client] in
            // Lost, it costs an idle worker its poll interval: nothing to report.
            _ = try? await deadlines.run {
                for try await _ in try await client.query(PostgresStatements.notify, logger: Self.logger) {}
            }
        }
    }

    deinit { runner.cancel() }

    // MARK: - Writing

    /// One statement in its implicit transaction (no BEGIN, no COMMIT): one round trip,
    /// committed before it returns (see ``PostgresStatements/insert(kinds:payloads:traceContexts:now:)``);
    /// the wake-up follows it (``WakeUpSender``).
    func insert(_ jobs: [NewStoredJob], now: Date) async throws -> [StoredJobID] {
        let statement = PostgresStatements.insert(
            kinds: jobs.map(\.kind), payloads: jobs.map(\.payload), traceContexts: jobs.map(\.traceContext), now: now)
        let ids = try await deadlines.run { [client] in
            var ids: [StoredJobID] = []
            // The statement returns the identities in input order.
            for try await id in try await client.query(statement, logger: Self.logger).decode(Int64.self) { ids.append(StoredJobID(id)) }
            return ids
        }
        if !ids.isEmpty { wakeUps.ring() }
        return ids
    }

    func claim(kinds: [String], limit: Int, owner: String, now: Date, leaseUntil: Date) async throws -> ClaimBatch {
        try await transaction { connection in
            try await connection.query(PostgresStatements.promoteDue(now: now), logger: Self.logger)
            let recovered = try await Self.references(
                connection.query(PostgresStatements.recoverExpired(now: now), logger: Self.logger))
            var batch = ClaimBatch(jobs: [], recovered: recovered, nextDue: nil)
            guard !kinds.isEmpty else { return batch }
            let rows = try await connection.query(
                PostgresStatements.claimPending(kinds: kinds, limit: limit, owner: owner, leaseUntil: leaseUntil),
                logger: Self.logger)
            for try await row in rows {
                let (id, stored) = try Self.storedRow(row)
                switch JobRowDecoding.claimed(id: id, stored) {
                case .job(let job): batch.jobs.append(job)
                case .rejected(let rejected): batch.rejected.append(rejected)
                }
            }
            // RETURNING gives no order; workers run the oldest first.
            batch.jobs.sort { $0.id < $1.id }
            for rejected in batch.rejected {
                try await connection.query(PostgresStatements.reject(rejected, now: now), logger: Self.logger)
            }
            if batch.jobs.isEmpty {
                let due = try await connection.query(
                    "SELECT min(due_at) FROM taskflow_job WHERE state IN ('scheduled', 'parked', 'running')", logger: Self.logger)
                for try await next in due.decode(Date?.self) { batch.nextDue = next }
            }
            return batch
        }
    }

    func renewLeases(_ jobs: [StoredJobID], owner: String, until: Date) async throws {
        let ids = jobs.map(\.rawValue)
        try await transaction { connection in
            try await connection.query("""
                UPDATE taskflow_job SET due_at = \(until)
                WHERE id = ANY(\(ids)) AND state = 'running' AND lease_owner = \(owner)
                """, logger: Self.logger)
            return ()
        }
    }

    func recordHeartbeat(_ beat: Heartbeat) async throws {
        let (workers, lease) = (Int32(clamping: beat.workers), beat.lease.timeInterval)
        let (minimum, leases) = (StoredWorkerProcess.forgottenAfter.timeInterval, StoredWorkerProcess.forgottenAfterLeases)
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO taskflow_worker (owner, host, pid, workers, lease_seconds, started_at, heartbeat_at)
                VALUES (\(beat.owner), \(beat.host), \(beat.pid), \(workers), \(lease), \(beat.startedAt), \(beat.now))
                ON CONFLICT (owner) DO UPDATE SET workers = excluded.workers, heartbeat_at = excluded.heartbeat_at
                """, logger: Self.logger)
            try await connection.query("""
                DELETE FROM taskflow_worker
                WHERE heartbeat_at < \(beat.now) - make_interval(secs => greatest(\(minimum), \(leases) * lease_seconds))
                """, logger: Self.logger)
            return ()
        }
    }

    func leave(owner: String) async throws {
        try await transaction { connection in
            try await connection.query("DELETE FROM taskflow_worker WHERE owner = \(owner)", logger: Self.logger)
            return ()
        }
    }

    func workerProcesses() async throws -> [StoredWorkerProcess] {
        try await transaction { connection in
            let rows = try await connection.query("""
                SELECT owner, host, pid, workers, lease_seconds, started_at, heartbeat_at, coalesce(held.count, 0)
                FROM taskflow_worker LEFT JOIN (
                    SELECT lease_owner, count(*) AS count FROM taskflow_job WHERE state = 'running' GROUP BY lease_owner
                ) AS held ON held.lease_owner = taskflow_worker.owner
                ORDER BY host, pid, owner
                """, logger: Self.logger)
            var processes: [StoredWorkerProcess] = []
            let decoded = rows.decode((String, String, Int32, Int32, Double, Date, Date, Int64).self)
            for try await (owner, host, pid, workers, lease, started, beat, held) in decoded {
                // The columns are typed, but their values may still be out of range (a pid of
                // -1, a lease of 1e308, a time of 'infinity'): the shared reading judges them.
                let row = StoredRow([
                    ("owner", .text(owner)), ("host", .text(host)), ("pid", .integer(Int64(pid))),
                    ("workers", .integer(Int64(workers))), ("lease", .real(lease)),
                    ("started_at", .real(started.timeIntervalSince1970)), ("heartbeat_at", .real(beat.timeIntervalSince1970)),
                ])
                processes.append(WorkerRowDecoding.process(row, runningJobs: Int(held)))
            }
            return processes
        }
    }

    func apply(_ resolutions: [Resolution], now: Date) async throws -> [Bool] {
        try await transaction { connection in
            var applied: [Bool] = []
            var runnable = false
            for resolution in resolutions {
                let rows = try await connection.query(PostgresStatements.outcome(resolution, now: now), logger: Self.logger)
                var count = 0
                for try await _ in rows { count += 1 }
                applied.append(count == 1)
                if case .schedule(_, let at, _) = resolution.action, at <= now { runnable = true }
            }
            if runnable { try await Self.notify(connection) }
            return applied
        }
    }

    func release(_ jobs: [ClaimedJob]) async throws {
        guard !jobs.isEmpty else { return }
        try await transaction { connection in
            for job in jobs {
                try await connection.query("""
                    UPDATE taskflow_job SET state = 'pending', due_at = NULL, lease_owner = NULL
                    WHERE id = \(job.id.rawValue) AND claim = \(job.claimToken) AND state = 'running'
                    """, logger: Self.logger)
            }
            try await Self.notify(connection)
        }
    }

    func recover(ownersWhere isDead: @Sendable (String) -> Bool) async throws -> [JobReference] {
        // The owners are read first and judged here: a dead owner stays dead in between.
        let owners = try await transaction { connection in
            var owners: [String] = []
            let rows = try await connection.query("""
                SELECT lease_owner FROM taskflow_job WHERE state = 'running' AND lease_owner IS NOT NULL
                UNION SELECT owner FROM taskflow_worker
                """, logger: Self.logger)
            for try await owner in rows.decode(String.self) { owners.append(owner) }
            return owners
        }
        let dead = owners.filter(isDead)
        guard !dead.isEmpty else { return [] }
        return try await transaction { connection in
            try await connection.query("DELETE FROM taskflow_worker WHERE owner = ANY(\(dead))", logger: Self.logger)
            let recovered = try await Self.references(connection.query("""
                UPDATE taskflow_job SET state = 'pending', due_at = NULL, lease_owner = NULL, recovered = true
                WHERE state = 'running' AND lease_owner = ANY(\(dead)) RETURNING id, kind
                """, logger: Self.logger))
            if !recovered.isEmpty { try await Self.notify(connection) }
            return recovered
        }
    }

    func wakeParked() async throws -> [JobReference] {
        try await transaction { connection in
            let woken = try await Self.references(connection.query(
                "UPDATE taskflow_job SET state = 'pending', due_at = NULL WHERE state = 'parked' RETURNING id, kind",
                logger: Self.logger))
            if !woken.isEmpty { try await Self.notify(connection) }
            return woken
        }
    }

    func retryFailed(_ id: StoredJobID) async throws -> JobReference? {
        try await transaction { connection in
            let retried = try await Self.references(connection.query("""
                UPDATE taskflow_job SET state = 'pending', retries = 0, failed_at = NULL
                WHERE id = \(id.rawValue) AND state = 'failed' RETURNING id, kind
                """, logger: Self.logger)).first
            if retried != nil { try await Self.notify(connection) }
            return retried
        }
    }

    func cancel(_ id: StoredJobID) async throws -> CancelResult {
        try await transaction { connection in
            let rows = try await connection.query(
                "SELECT kind, state FROM taskflow_job WHERE id = \(id.rawValue) FOR UPDATE", logger: Self.logger)
            var found: (kind: String, state: String)?
            for try await row in rows.decode((String, String).self) { found = row }
            guard let found else { return .notFound }
            guard found.state != StoredJobState.running.rawValue else { return .running }
            try await connection.query("DELETE FROM taskflow_job WHERE id = \(id.rawValue)", logger: Self.logger)
            return .cancelled(kind: found.kind)
        }
    }

    func purgeFailed() async throws -> Int {
        try await transaction { connection in
            let rows = try await connection.query("""
                WITH purged AS (DELETE FROM taskflow_job WHERE state = 'failed' RETURNING 1) SELECT count(*) FROM purged
                """, logger: Self.logger)
            var count = 0
            for try await purged in rows.decode(Int64.self) { count = Int(purged) }
            return count
        }
    }

    // MARK: - Reading

    func list(_ query: StoredJobQuery) async throws -> [StoredJobRecord] {
        let statement = Self.selecting(query, counting: false)
        return try await transaction { connection in try await Self.records(connection.query(statement, logger: Self.logger)) }
    }

    func count(_ query: StoredJobQuery) async throws -> Int {
        let statement = Self.selecting(query, counting: true)
        return try await transaction { connection in
            var count = 0
            for try await matching in try await connection.query(statement, logger: Self.logger).decode(Int64.self) {
                count = Int(matching)
            }
            return count
        }
    }

    /// The jobs `query` selects — their records in its order and up to its limit, or, when
    /// `counting`, how many there are. A filter left out binds NULL, and its condition folds to
    /// true when the server plans the statement for its values (as it does an unnamed one), so
    /// each query runs on the index that fits — `taskflow_job_state`, `taskflow_job_kind` or
    /// the primary key — which also gives the order.
    private static func selecting(_ query: StoredJobQuery, counting: Bool) -> PostgresQuery {
        let states = query.states.isEmpty ? nil : query.states.map(\.rawValue).sorted()
        let after = query.after?.rawValue
        let (ascending, limit) = (query.order == .oldestFirst, counting ? nil : query.limit)
        // `LIMIT NULL` is no limit.
        return """
            SELECT \(unescaped: counting ? "count(*)" : PostgresStatements.recordColumns(payload: query.includesPayloads)) FROM taskflow_job
            WHERE (\(states)::text[] IS NULL OR state = ANY(\(states)::text[]))
                AND (\(query.kind)::text IS NULL OR kind = \(query.kind)::text)
                AND (\(after)::bigint IS NULL OR id \(unescaped: ascending ? ">" : "<") \(after)::bigint)
            \(unescaped: counting ? "" : "ORDER BY id \(ascending ? "ASC" : "DESC")") LIMIT \(limit)
            """
    }

    func job(_ id: StoredJobID) async throws -> StoredJobRecord? {
        try await transaction { connection in
            try await Self.records(connection.query(
                "SELECT \(unescaped: PostgresStatements.recordColumns()) FROM taskflow_job WHERE id = \(id.rawValue)",
                logger: Self.logger)).first
        }
    }

    func countByState() async throws -> [StoredJobState: Int] {
        try await transaction { connection in
            let rows = try await connection.query("SELECT state, count(*) FROM taskflow_job GROUP BY state", logger: Self.logger)
            var counts: [StoredJobState: Int] = [:]
            for try await (state, count) in rows.decode((String, Int64).self) {
                counts[JobRowDecoding.countedState(.text(state)), default: 0] += Int(count)
            }
            return counts
        }
    }

    private static func records(_ rows: PostgresRowSequence) async throws -> [StoredJobRecord] {
        var records: [StoredJobRecord] = []
        for try await row in rows {
            let (id, stored) = try storedRow(row)
            records.append(JobRowDecoding.record(id: id, stored))
        }
        return records
    }

    /// A row of ``PostgresStatements/recordColumns(payload:)`` (and `claim`, after a claim) as a stored
    /// row, for ``JobRowDecoding`` to judge: the columns are typed, but their values may still
    /// be out of range (a retry count of -1, a time of 'infinity') or unknown (a state).
    private static func storedRow(_ row: PostgresRow) throws -> (StoredJobID, StoredRow) {
        let cells = row.makeRandomAccess()
        func time(_ column: String) throws -> StoredValue {
            try cells[column].decode(Date?.self).map { .real($0.timeIntervalSince1970) } ?? .null
        }
        func text(_ column: String) throws -> StoredValue { try cells[column].decode(String?.self).map(StoredValue.text) ?? .null }
        var columns: [(String, StoredValue)] = [
            ("kind", try text("kind")), ("state", try text("state")),
            ("retries", .integer(Int64(try cells["retries"].decode(Int32.self)))),
            ("submitted_at", try time("submitted_at")), ("due_at", try time("due_at")),
            ("lease_owner", try text("lease_owner")), ("last_error", try text("last_error")),
            ("recovered", .integer(try cells["recovered"].decode(Bool.self) ? 1 : 0)),
            ("payload", .blob(try cells["payload"].decode(Data.self))),
        ]
        if cells.contains("claim") { columns.append(("claim", .integer(try cells["claim"].decode(Int64.self)))) }
        if cells.contains("trace_context") { columns.append(("trace_context", try text("trace_context"))) }
        return (StoredJobID(try cells["id"].decode(Int64.self)), StoredRow(columns))
    }

    // MARK: - Waking workers in every process

    /// Listens on ``channel`` on a connection of its own and rings `ring` at every
    /// notification, reconnecting after a lost connection (and ringing then, since
    /// notifications sent meanwhile are lost), until the task is cancelled.
    func watchForWork(_ ring: @escaping @Sendable () -> Void) -> Task<Void, Never>? {
        Task { [client] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            ring()
                            for try await _ in notifications { ring() }
                        }
                    }
                } catch {
                    // Lost the connection or the server: try again in a moment.
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    // MARK: - Helpers

    /// Runs `body` in one transaction, within ``deadlines``' limit; errors come out as they were thrown
    /// in it.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await deadlines.run { [client] in
            do {
                return try await client.withTransaction(logger: Self.logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.beginError ?? error.commitError ?? error
            }
        }
    }

    private static func notify(_ connection: PostgresConnection) async throws {
        try await connection.query(PostgresStatements.notify, logger: Self.logger)
    }

    private static func references(_ rows: PostgresRowSequence) async throws -> [JobReference] {
        var references: [JobReference] = []
        for try await (id, kind) in rows.decode((Int64, String).self) {
            references.append(JobReference(id: StoredJobID(id), kind: kind))
        }
        return references
    }
}
