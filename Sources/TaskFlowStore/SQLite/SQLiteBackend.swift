import Foundation
import GRDB

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

    func insert(_ jobs: [NewStoredJob], now: Date) async throws -> [StoredJobID] {
        try await writer.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO job (kind, payload, state, submitted_at) VALUES (?, ?, 'pending', ?)")
            return try jobs.map { job in
                try statement.execute(arguments: [job.kind, job.payload, now.timeIntervalSince1970])
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
                WHERE state = 'running' AND due_at < ? RETURNING id, kind
                """, arguments: [time])
            var batch = ClaimBatch(jobs: [], recovered: recovered, nextDue: nil)
            guard !kinds.isEmpty else { return batch }
            let placeholders = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
            var arguments: StatementArguments = [owner, leaseUntil.timeIntervalSince1970]
            arguments += StatementArguments(kinds)
            arguments += [limit]
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                UPDATE job SET state = 'running', lease_owner = ?, due_at = ?, claim = claim + 1
                WHERE id IN (SELECT id FROM job WHERE state = 'pending' AND kind IN (\(placeholders)) ORDER BY id LIMIT ?)
                RETURNING id, kind, payload, retries, recovered, claim
                """), arguments: arguments)
            // RETURNING gives no order; workers run the oldest first.
            batch.jobs = rows.map { row in
                ClaimedJob(
                    id: StoredJobID(row[0]), kind: row[1], payload: row[2], retries: row[3], isRecovery: row[4],
                    claimToken: row[5])
            }.sorted { $0.id < $1.id }
            if batch.jobs.isEmpty {
                batch.nextDue = try Double.fetchOne(db.cachedStatement(sql: """
                    SELECT min(due_at) FROM job WHERE state IN ('scheduled', 'parked', 'running')
                    """)).map(Date.init(timeIntervalSince1970:))
            }
            return batch
        }
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
            try Row.fetchAll(db, sql: """
                SELECT owner, host, pid, workers, lease, started_at, heartbeat_at, coalesce(held.count, 0)
                FROM worker LEFT JOIN (
                    SELECT lease_owner, count(*) AS count FROM job WHERE state = 'running' GROUP BY lease_owner
                ) AS held ON held.lease_owner = worker.owner
                ORDER BY host, pid, owner
                """).map { row in
                StoredWorkerProcess(
                    owner: row[0], host: row[1], pid: row[2], workers: row[3], runningJobs: row[7],
                    lease: .seconds(row[4] as Double), startedAt: Date(timeIntervalSince1970: row[5]),
                    lastHeartbeat: Date(timeIntervalSince1970: row[6]))
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
                    WHERE state = 'running' AND lease_owner = ? RETURNING id, kind
                    """, arguments: [owner])
            }
        }
    }

    func wakeParked() async throws -> [JobReference] {
        try await writer.write { db in
            try references(db, sql: "UPDATE job SET state = 'pending', due_at = NULL WHERE state = 'parked' RETURNING id, kind")
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

    /// The columns ``record(_:)`` reads, in its order; without the payload, an empty blob in its
    /// place: a table of jobs never copies a payload out of the database, whatever its size.
    private static func recordColumns(payload: Bool) -> String {
        "id, kind, state, retries, submitted_at, due_at, lease_owner, last_error, recovered, \(payload ? "payload" : "X''")"
    }

    private static func record(_ row: Row) -> StoredJobRecord {
        StoredJobRecord(
            id: StoredJobID(row[0]), kind: row[1], state: StoredJobState(rawValue: row[2]) ?? .pending,
            retries: row[3], submittedAt: Date(timeIntervalSince1970: row[4]),
            dueAt: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)), leaseOwner: row[6],
            lastError: row[7], isRecovery: row[8], payload: row[9])
    }

    func countByState() async throws -> [StoredJobState: Int] {
        try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) FROM job GROUP BY state")
            return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                StoredJobState(rawValue: row[0]).map { ($0, row[1] as Int) }
            })
        }
    }

    func retryFailed(_ id: StoredJobID) async throws -> JobReference? {
        try await writer.write { db in
            try references(db, sql: """
                UPDATE job SET state = 'pending', retries = 0, failed_at = NULL WHERE id = ? AND state = 'failed'
                RETURNING id, kind
                """, arguments: [id.rawValue]).first
        }
    }

    func cancel(_ id: StoredJobID) async throws -> CancelResult {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT kind, state FROM job WHERE id = ?", arguments: [id.rawValue])
            else { return .notFound }
            guard row[1] as String != StoredJobState.running.rawValue else { return .running }
            try db.execute(sql: "DELETE FROM job WHERE id = ?", arguments: [id.rawValue])
            return .cancelled(kind: row[0])
        }
    }

    func purgeFailed() async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM job WHERE state = 'failed'")
            return db.changesCount
        }
    }

    /// Runs an `UPDATE … RETURNING id, kind`.
    private func references(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [JobReference] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            JobReference(id: StoredJobID(row[0]), kind: row[1])
        }
    }
}
