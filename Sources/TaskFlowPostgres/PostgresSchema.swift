import Logging
import PostgresNIO

/// The job store's tables in a PostgreSQL database, created or brought up to date when a store
/// opens. Migrations run in one transaction under an advisory lock, so processes that start
/// together migrate once; a database a newer TaskFlow migrated further is refused, untouched.
/// Tables are prefixed `taskflow_` so that the store can share a database with an application.
enum PostgresSchema {
    /// The version this build writes.
    static let version = 5

    /// Each version's statements, in order: version n is `migrations[n - 1]`.
    static let migrations: [[PostgresQuery]] = [
        [
            """
            CREATE TABLE taskflow_job (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                kind TEXT NOT NULL,
                payload BYTEA NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'parked', 'scheduled', 'failed')),
                retries INTEGER NOT NULL DEFAULT 0,
                due_at TIMESTAMPTZ,
                claim BIGINT NOT NULL DEFAULT 0,
                lease_owner TEXT,
                recovered BOOLEAN NOT NULL DEFAULT false,
                last_error TEXT,
                submitted_at TIMESTAMPTZ NOT NULL,
                failed_at TIMESTAMPTZ
            )
            """,
            // Claims read the oldest pending jobs of some kinds; promotions and lease expiry the
            // due times of the other states.
            "CREATE INDEX taskflow_job_pending ON taskflow_job (kind, id) WHERE state = 'pending'",
            "CREATE INDEX taskflow_job_due ON taskflow_job (state, due_at) WHERE state IN ('scheduled', 'parked', 'running')",
        ],
        [
            // One row per process running workers, written by its heartbeat (every third of its
            // lease): the jobs view's worker processes. The jobs it holds are counted from
            // `taskflow_job.lease_owner`, never stored twice.
            """
            CREATE TABLE taskflow_worker (
                owner TEXT PRIMARY KEY,
                host TEXT NOT NULL,
                pid INTEGER NOT NULL,
                workers INTEGER NOT NULL,
                lease_seconds DOUBLE PRECISION NOT NULL,
                started_at TIMESTAMPTZ NOT NULL,
                heartbeat_at TIMESTAMPTZ NOT NULL
            )
            """,
        ],
        [
            // Listings (`taskflow jobs list --state S`, `--kind K`, the dashboard's counts) read
            // a page in id order and count it from an index, not a scan of every row.
            "CREATE INDEX taskflow_job_state ON taskflow_job (state, id)",
            "CREATE INDEX taskflow_job_kind ON taskflow_job (kind, id)",
        ],
        [
            // The durable flows' journal (PostgresFlowJournal.swift): a row per flow, keyed by
            // its FlowID, and its steps' stored reverts, written before each step runs. States are
            // not CHECKed: a state this version does not know is read back as text and judged
            // by the reader.
            """
            CREATE TABLE taskflow_flow (
                id BIGINT PRIMARY KEY,
                title TEXT NOT NULL,
                state TEXT NOT NULL,
                owner TEXT NOT NULL,
                started_at TIMESTAMPTZ NOT NULL,
                heartbeat_at TIMESTAMPTZ NOT NULL,
                ended_at TIMESTAMPTZ,
                reason TEXT
            )
            """,
            // Recovery reads the unfinished flows, pruning the oldest finished ones.
            "CREATE INDEX taskflow_flow_state ON taskflow_flow (state, id)",
            """
            CREATE TABLE taskflow_flow_step (
                flow_id BIGINT NOT NULL REFERENCES taskflow_flow (id) ON DELETE CASCADE,
                step INTEGER NOT NULL,
                title TEXT NOT NULL,
                kind TEXT,
                payload BYTEA,
                state TEXT NOT NULL DEFAULT 'pending',
                last_error TEXT,
                PRIMARY KEY (flow_id, step)
            )
            """,
            // The next flow id no process reserved yet: one row (its key pinned to 1), written by
            // the first reservation as an upsert, so that a deleted row is no dead end either.
            """
            CREATE TABLE taskflow_flow_ids (
                one INTEGER PRIMARY KEY DEFAULT 1 CHECK (one = 1),
                next BIGINT NOT NULL
            )
            """,
        ],
        // 5: the submitter's trace context (W3C trace context, as the tracer's carrier in JSON),
        // which a stored job's run span links to, in whichever process runs it.
        ["ALTER TABLE taskflow_job ADD COLUMN trace_context TEXT"],
    ]

    /// Brings the database `connection` is on to ``version``; throws
    /// ``PostgresStoreError/newerSchema(server:version:)`` for a newer one.
    static func migrate(_ connection: PostgresConnection, server: String, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('taskflow.migrate'))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS taskflow_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            var current = 0
            for try await found in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM taskflow_schema", logger: logger).decode(Int32.self) {
                current = Int(found)
            }
            guard current <= version else { throw PostgresStoreError.newerSchema(server: server, version: current) }
            for next in (current + 1)...max(version, current + 1) where next <= version {
                for statement in migrations[next - 1] { try await connection.query(statement, logger: logger) }
                try await connection.query("INSERT INTO taskflow_schema (version) VALUES (\(Int32(next)))", logger: logger)
            }
        }
    }
}
