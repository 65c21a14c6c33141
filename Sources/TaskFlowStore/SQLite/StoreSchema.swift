import GRDB

/// The database schema, as GRDB migrations: a file is brought up to date when it is opened, and
/// a file with migrations this version does not know (a newer TaskFlow) is refused untouched.
enum StoreSchema {
    /// `PRAGMA application_id` of every TaskFlow job store ("TFJS"): tells our files from any
    /// other SQLite database before anything is written to one.
    static let applicationID: Int32 = 0x5446_4A53

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: job table") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            // One table for every state, failed included, so that an outcome is always one
            // UPDATE or DELETE of one row: nothing can be half moved between tables by a crash.
            try db.execute(sql: """
                CREATE TABLE job (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: ids stay unique in logs
                    kind TEXT NOT NULL,
                    payload BLOB NOT NULL,                 -- the job as JSON
                    state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'parked', 'scheduled', 'failed')),
                    retries INTEGER NOT NULL DEFAULT 0,
                    due_at REAL,          -- scheduled, parked: when it is tried again; running: lease end
                    claim INTEGER NOT NULL DEFAULT 0,      -- bumped per claim: fences a lost lease's outcome
                    lease_owner TEXT,
                    recovered INTEGER NOT NULL DEFAULT 0,  -- its next run follows a dead worker's claim
                    last_error TEXT,
                    submitted_at REAL NOT NULL,
                    failed_at REAL
                );
                -- (state, rowid): the oldest pending job without a sort.
                CREATE INDEX job_by_state ON job(state);
                -- Due scheduled and parked jobs and expired leases, by range.
                CREATE INDEX job_by_due ON job(state, due_at);
                """)
        }
        migrator.registerMigration("v2: worker table") { db in
            // One row per process running workers, written by its heartbeat (every third of its
            // lease): what the jobs view lists as worker processes. Jobs it holds are counted
            // from `job.lease_owner`, never stored twice.
            try db.execute(sql: """
                CREATE TABLE worker (
                    owner TEXT PRIMARY KEY,                -- the lease owner its claims carry
                    host TEXT NOT NULL,
                    pid INTEGER NOT NULL,
                    workers INTEGER NOT NULL,
                    lease REAL NOT NULL,                   -- seconds
                    started_at REAL NOT NULL,
                    heartbeat_at REAL NOT NULL
                ) WITHOUT ROWID
                """)
        }
        migrator.registerMigration("v3: jobs by kind") { db in
            // (kind, rowid): `taskflow jobs list --kind K` reads a page of one kind, in order,
            // and counts it, without scanning the table. By state, `job_by_state` serves.
            try db.execute(sql: "CREATE INDEX job_by_kind ON job(kind)")
        }
        migrator.registerMigration("v4: flow journal") { db in
            // Durable flows: each flow's row (keyed by its FlowID) and each journaled step's
            // stored revert, written before the step runs. No CHECK on states: a state this
            // version does not know is read as text and judged, never a failed read.
            try db.execute(sql: """
                CREATE TABLE flow (
                    id INTEGER PRIMARY KEY,                -- the flow's FlowID
                    title TEXT NOT NULL,
                    state TEXT NOT NULL,
                    owner TEXT NOT NULL,                   -- the lease owner of the process running or rolling it back
                    started_at REAL NOT NULL,
                    heartbeat_at REAL NOT NULL,            -- proof of life for owners on other hosts
                    ended_at REAL,
                    reason TEXT                            -- why a rollback was left incomplete
                );
                CREATE INDEX flow_by_state ON flow(state);
                CREATE TABLE flow_step (
                    flow_id INTEGER NOT NULL REFERENCES flow(id) ON DELETE CASCADE,
                    step INTEGER NOT NULL,                 -- journal order: rolled back last first
                    title TEXT NOT NULL,
                    kind TEXT,                             -- NULL until a revert made from the result is recorded
                    payload BLOB,
                    state TEXT NOT NULL DEFAULT 'pending', -- pending, reverted (checkpointed), failed
                    last_error TEXT,
                    PRIMARY KEY (flow_id, step)
                ) WITHOUT ROWID;
                -- The next block of flow ids a process may take (see reserveFlowIDs).
                CREATE TABLE flow_ids (next INTEGER NOT NULL);
                INSERT INTO flow_ids (next) VALUES (1);
                """)
        }
        migrator.registerMigration("v5: trace context") { db in
            // The submitter's trace context (W3C trace context, as the tracer's carrier in JSON),
            // which a stored job's run span links to, in whichever process runs it.
            try db.execute(sql: "ALTER TABLE job ADD COLUMN trace_context TEXT")
        }
        return migrator
    }
}
