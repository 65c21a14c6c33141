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
        return migrator
    }
}
