import Foundation
import GRDB
import Logging
import TaskFlow

/// ``JobStoreBackend`` on SQLite through GRDB: a `DatabasePool` in WAL mode for files (readers
/// never wait for the writer), a `DatabaseQueue` in memory for tests.
///
/// Every method is one write transaction, and GRDB opens those with `BEGIN IMMEDIATE`: the
/// write lock is taken first, so two processes sharing the file never both read the same
/// pending row as free — a claim is one `UPDATE … WHERE state = 'pending' … RETURNING`. Statements
/// are prepared once per connection (`cachedStatement`). Times are wall-clock seconds since
/// 1970, because leases are compared across processes.
struct SQLiteBackend: JobStoreBackend {
    let writer: any DatabaseWriter
    /// Where durable flows recovered from a dead process are told of (``JobStoreOptions/logger``).
    var logger = Logger.noOp

    func insert(_ jobs: [NewStoredJob], now: Date) async throws -> [StoredJobID] {
        try await writer.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO job (kind, payload, state, submitted_at, trace_context) VALUES (?, ?, 'pending', ?, ?)")
            return try jobs.map { job in
                try statement.execute(arguments: [job.kind, job.payload, now.timeIntervalSince1970, job.traceContext])
                return StoredJobID(db.lastInsertedRowID)
            }
        }
    }

    func claim(kinds: [String], limit: Int, owner: String, now: Date, leaseUntil: Date) async throws -> ClaimBatch {
        try await writer.write { db in
            let time = now.timeIntervalSince1970
            try db.cachedStatement(sql: """
                UPDATE job SET state = 'pending', due_at = NULL
                WHERE state IN ('scheduled', 'parked') AND due_at <= ?
                """).execute(arguments: [time])
            let recovered = try references(db, sql: """
                UPDATE job SET state = 'pending', due_at = NULL, lease_owner = NULL, recovered = 1
                WHERE state = 'running' AND due_at < ? RETURNING rowid AS row_id, kind
                """, arguments: [time])
            var batch = ClaimBatch(jobs: [], recovered: recovered, nextDue: nil)
            guard !kinds.isEmpty else { return batch }
            let placeholders = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
            var arguments: StatementArguments = [owner, leaseUntil.timeIntervalSince1970]
            arguments += StatementArguments(kinds)
            arguments += [limit]
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                UPDATE job SET state = 'running', lease_owner = ?, due_at = ?, claim = claim % 9223372036854775807 + 1
                WHERE id IN (SELECT id FROM job WHERE state = 'pending' AND kind IN (\(placeholders)) ORDER BY id LIMIT ?)
                RETURNING \(Self.recordColumns(payload: true)), claim, trace_context
                """), arguments: arguments)
            // RETURNING gives no order; workers run the oldest first.
            for row in rows.sorted(by: { Self.id($0) < Self.id($1) }) {
                switch JobRowDecoding.claimed(id: Self.id(row), StoredRow(row, columns: Self.claimColumns)) {
                case .job(let job): batch.jobs.append(job)
                case .rejected(let rejected): batch.rejected.append(rejected)
                }
            }
            try reject(batch.rejected, now: time, db)
            if batch.jobs.isEmpty {
                // Only numbers: a due time of 'soon' is a damaged row, not the next one due.
                batch.nextDue = try Double.fetchOne(db.cachedStatement(sql: """
                    SELECT min(due_at) FROM job
                    WHERE state IN ('scheduled', 'parked', 'running') AND typeof(due_at) IN ('integer', 'real')
                    """)).map(Date.init(timeIntervalSince1970:))
            }
            return batch
        }
    }

    /// Fails claimed rows that are not jobs, in the claim's transaction (see ``RejectedJob``):
    /// only the state, the reason and the lease change; the damaged values stay as they were.
    private func reject(_ jobs: [RejectedJob], now: Double, _ db: Database) throws {
        guard !jobs.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            UPDATE job SET state = 'failed', last_error = ?, failed_at = ?, due_at = NULL, lease_owner = NULL WHERE rowid = ?
            """)
        for job in jobs { try statement.execute(arguments: [job.failure, now, job.id.rawValue]) }
    }

    func renewLeases(_ jobs: [StoredJobID], owner: String, until: Date) async throws {
        try await writer.write { db in
            let renew = try db.cachedStatement(
                sql: "UPDATE job SET due_at = ? WHERE id = ? AND state = 'running' AND lease_owner = ?")
            for job in jobs { try renew.execute(arguments: [until.timeIntervalSince1970, job.rawValue, owner]) }
        }
    }

    func recordHeartbeat(_ beat: Heartbeat) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: """
                INSERT INTO worker (owner, host, pid, workers, lease, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner) DO UPDATE SET workers = excluded.workers, heartbeat_at = excluded.heartbeat_at
                """).execute(arguments: [
                    beat.owner, beat.host, beat.pid, beat.workers, beat.lease.timeInterval,
                    beat.startedAt.timeIntervalSince1970, beat.now.timeIntervalSince1970,
                ])
            try db.cachedStatement(sql: "DELETE FROM worker WHERE heartbeat_at < ? - max(?, ? * lease)").execute(arguments: [
                beat.now.timeIntervalSince1970, StoredWorkerProcess.forgottenAfter.timeInterval,
                StoredWorkerProcess.forgottenAfterLeases,
            ])
        }
    }

    func leave(owner: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM worker WHERE owner = ?", arguments: [owner])
        }
    }

    func workerProcesses() async throws -> [StoredWorkerProcess] {
        try await writer.read { db in
            // A store of the first schema, opened read-only (not upgraded), records no process.
            guard try db.tableExists("worker") else { return [] }
            let columns = ["owner", "host", "pid", "workers", "lease", "started_at", "heartbeat_at"]
            return try Row.fetchAll(db, sql: """
                SELECT \(columns.joined(separator: ", ")), coalesce(held.count, 0) AS held
                FROM worker LEFT JOIN (
                    SELECT lease_owner, count(*) AS count FROM job WHERE state = 'running' GROUP BY lease_owner
                ) AS held ON held.lease_owner = worker.owner
                ORDER BY host, pid, owner
                """).map { row in
                // A count(*) is an integer, never more than the rows of a table.
                WorkerRowDecoding.process(StoredRow(row, columns: columns), runningJobs: row["held"])
            }
        }
    }

    func apply(_ resolutions: [Resolution], now: Date) async throws -> [Bool] {
        try await writer.write { db in
            try resolutions.map { resolution in
                try apply(resolution, now: now.timeIntervalSince1970, db)
                return db.changesCount == 1
            }
        }
    }

    /// One outcome as one statement; `WHERE … claim = ?` drops it if the lease was lost.
    private func apply(_ resolution: Resolution, now: Double, _ db: Database) throws {
        let job = resolution.job
        let fence = "id = ? AND claim = ? AND state = 'running'"
        let key: StatementArguments = [job.id.rawValue, job.claimToken]
        let clear = "lease_owner = NULL, recovered = 0"
        switch resolution.action {
        case .delete:
            try db.cachedStatement(sql: "DELETE FROM job WHERE \(fence)").execute(arguments: key)
        case .park(let until):
            try db.cachedStatement(sql: "UPDATE job SET state = 'parked', due_at = ?, \(clear) WHERE \(fence)")
                .execute(arguments: [until.timeIntervalSince1970] + key)
        case .schedule(let retries, let at, let reason):
            // A retry due now goes straight back to pending: no promotion needed to run it.
            let isDue = at.timeIntervalSince1970 <= now
            try db.cachedStatement(sql: """
                UPDATE job SET state = ?, retries = ?, due_at = ?, last_error = ?, \(clear) WHERE \(fence)
                """).execute(arguments: [
                    isDue ? "pending" : "scheduled", retries, isDue ? nil : at.timeIntervalSince1970, reason,
                ] + key)
        case .fail(let retries, let reason):
            try db.cachedStatement(sql: """
                UPDATE job SET state = 'failed', retries = ?, last_error = ?, failed_at = ?, due_at = NULL, \(clear)
                WHERE \(fence)
                """).execute(arguments: [retries, reason, now] + key)
        }
    }

    func release(_ jobs: [ClaimedJob]) async throws {
        try await writer.write { db in
            let statement = try db.cachedStatement(sql: """
                UPDATE job SET state = 'pending', due_at = NULL, lease_owner = NULL
                WHERE id = ? AND claim = ? AND state = 'running'
                """)
            for job in jobs { try statement.execute(arguments: [job.id.rawValue, job.claimToken]) }
        }
    }

    func recover(ownersWhere isDead: @Sendable (String) -> Bool) async throws -> [JobReference] {
        try await writer.write { db in
            let owners = try String.fetchAll(db, sql: """
                SELECT lease_owner FROM job WHERE state = 'running' AND lease_owner IS NOT NULL
                UNION SELECT owner FROM worker
                """)
            return try owners.filter(isDead).flatMap { owner in
                try db.execute(sql: "DELETE FROM worker WHERE owner = ?", arguments: [owner])
                return try references(db, sql: """
                    UPDATE job SET state = 'pending', due_at = NULL, lease_owner = NULL, recovered = 1
                    WHERE state = 'running' AND lease_owner = ? RETURNING rowid AS row_id, kind
                    """, arguments: [owner])
            }
        }
    }

    func wakeParked() async throws -> [JobReference] {
        try await writer.write { db in
            try references(db, sql: "UPDATE job SET state = 'pending', due_at = NULL WHERE state = 'parked' RETURNING rowid AS row_id, kind")
        }
    }

    func list(_ query: StoredJobQuery) async throws -> [StoredJobRecord] {
        let filter = Self.filter(query)
        // -1 is SQLite's "no limit".
        let sql = """
            SELECT \(Self.recordColumns(payload: query.includesPayloads)) FROM job \(filter.sql)
            ORDER BY id \(query.order == .oldestFirst ? "ASC" : "DESC") LIMIT ?
            """
        return try await writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: filter.arguments + [query.limit ?? -1]).map(Self.record)
        }
    }

    func count(_ query: StoredJobQuery) async throws -> Int {
        let filter = Self.filter(query)
        return try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM job \(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }

    /// `WHERE …` for `query`'s states, kind and cursor, with its arguments: each condition is on
    /// an index (`job_by_state`, `job_by_kind`, the id), which also gives the order by id.
    private static func filter(_ query: StoredJobQuery) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if !query.states.isEmpty {
            let states = query.states.map(\.rawValue).sorted()
            conditions.append("state IN (\(Array(repeating: "?", count: states.count).joined(separator: ", ")))")
            arguments += StatementArguments(states)
        }
        if let kind = query.kind {
            conditions.append("kind = ?")
            arguments += [kind]
        }
        if let after = query.after {
            conditions.append(query.order == .oldestFirst ? "id > ?" : "id < ?")
            arguments += [after.rawValue]
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    func job(_ id: StoredJobID) async throws -> StoredJobRecord? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.recordColumns(payload: true)) FROM job WHERE id = ?", arguments: [id.rawValue])
                .map(Self.record)
        }
    }

    /// What a listing selects: the row id (as `row_id`) and the columns ``JobRowDecoding`` reads;
    /// without the payload, an empty blob in its place: a table of jobs never copies a payload out
    /// of the database, whatever its size.
    private static func recordColumns(payload: Bool) -> String {
        let columns = JobRowDecoding.recordColumns.map { $0 == "payload" && !payload ? "X'' AS payload" : $0 }
        return (["rowid AS row_id"] + columns).joined(separator: ", ")
    }
    /// The columns a claim reads: a record's and the claim's token.
    private static let claimColumns = JobRowDecoding.recordColumns + ["claim", "trace_context"]

    /// The row's id. `rowid` rather than `id`: SQLite makes the rowid an integer in every row of
    /// a table with one, so reading it typed cannot trap, whatever the file holds.
    private static func id(_ row: Row) -> StoredJobID { StoredJobID(row["row_id"]) }

    private static func record(_ row: Row) -> StoredJobRecord {
        JobRowDecoding.record(id: id(row), StoredRow(row, columns: JobRowDecoding.recordColumns))
    }

    func countByState() async throws -> [StoredJobState: Int] {
        try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) FROM job GROUP BY state")
            // Several unknown states all count as damaged. A count(*) is an integer.
            return rows.reduce(into: [:]) { counts, row in
                counts[JobRowDecoding.countedState(StoredValue(row[0] as DatabaseValue)), default: 0] += row[1] as Int
            }
        }
    }

    func retryFailed(_ id: StoredJobID) async throws -> JobReference? {
        try await writer.write { db in
            try references(db, sql: """
                UPDATE job SET state = 'pending', retries = 0, failed_at = NULL WHERE id = ? AND state = 'failed'
                RETURNING rowid AS row_id, kind
                """, arguments: [id.rawValue]).first
        }
    }

    func cancel(_ id: StoredJobID) async throws -> CancelResult {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT kind, state FROM job WHERE id = ?", arguments: [id.rawValue])
            else { return .notFound }
            let stored = StoredRow(row, columns: ["kind", "state"])
            guard stored.value("state") != .text(StoredJobState.running.rawValue) else { return .running }
            try db.execute(sql: "DELETE FROM job WHERE id = ?", arguments: [id.rawValue])
            return .cancelled(kind: JobRowDecoding.eventKind(stored))
        }
    }

    func purgeFailed() async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM job WHERE state = 'failed'")
            return db.changesCount
        }
    }

    /// Runs an `UPDATE … RETURNING rowid AS row_id, kind`; a kind that is not text is named
    /// as what it is.
    private func references(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [JobReference] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            JobReference(id: Self.id(row), kind: JobRowDecoding.eventKind(StoredRow(row, columns: ["kind"])))
        }
    }
}
