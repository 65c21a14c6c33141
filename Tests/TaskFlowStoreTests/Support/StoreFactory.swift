import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing
import TaskFlowPostgres
import TaskFlowStore

/// How the suite gets a store, so that the same tests run against every backend: each test takes
/// a factory as its argument. With `TASKFLOW_TEST_POSTGRES_URL` set (`Scripts/postgres-server.sh`
/// starts a throwaway server and says what to set), PostgreSQL joins `all` and `durable`.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// A new, empty place for stores: `open` on the same place reopens (and shares) its data
    /// when the backend is durable.
    let makePlace: @Sendable () async throws -> StorePlace

    /// A fresh in-memory store per `open`.
    static let inMemory = StoreFactory(testDescription: "in memory") {
        StorePlace(address: nil) { lease, options in try JobStore.inMemory(lease: lease, options: options) }
    }

    /// A new SQLite file in a temporary directory.
    static let sqliteFile = StoreFactory(testDescription: "SQLite file") {
        let path = try temporaryDirectory().appendingPathComponent("jobs.sqlite").path
        return StorePlace(address: path) { lease, options in
            try JobStore(path: path, lease: lease, options: options)
        } markClaimed: { id, owner, leaseSeconds in
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(
                    sql: "UPDATE job SET state = 'running', lease_owner = ?, due_at = ?, claim = claim + 1 WHERE id = ?",
                    arguments: [owner, Date().timeIntervalSince1970 + leaseSeconds, id.rawValue])
            }
            try queue.close()
        } recordProcess: { owner, leaseSeconds, silentSeconds in
            let queue = try DatabaseQueue(path: path)
            let beat = Date().timeIntervalSince1970 - silentSeconds
            try await queue.write { db in
                try db.execute(
                    sql: "INSERT INTO worker (owner, host, pid, workers, lease, started_at, heartbeat_at) VALUES (?, 'elsewhere', 1, 1, ?, ?, ?)",
                    arguments: [owner, leaseSeconds, beat, beat])
            }
            try queue.close()
        } downgradeToFirstSchema: {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "DROP TABLE worker")
                try db.execute(sql: "DROP INDEX job_by_kind")
                try db.execute(sql: "DROP TABLE flow_step; DROP TABLE flow; DROP TABLE flow_ids")
                try db.execute(sql: "ALTER TABLE job DROP COLUMN trace_context")
                try db.execute(sql: """
                    DELETE FROM grdb_migrations
                    WHERE identifier IN ('v2: worker table', 'v3: jobs by kind', 'v4: flow journal', 'v5: trace context')
                    """)
            }
            try queue.close()
        } tamper: { sqlite, _ in
            let queue = try DatabaseQueue(path: path)
            // As another program could: CHECK constraints do not bind what it writes.
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: sqlite)
            }
            try queue.close()
        }
    }

    /// A new database on the test server, when there is one.
    static let postgres: StoreFactory? = PostgresTestServer.url.map { url in
        StoreFactory(testDescription: "PostgreSQL") {
            let database = try await PostgresTestServer.createDatabase()
            return StorePlace(address: database) { lease, options in
                // A minute per request (see ``JobStoreOptions/patient``).
                try await JobStore.postgres(url: database, lease: lease, options: options.patient, maxConnections: 8)
            } markClaimed: { id, owner, leaseSeconds in
                try await PostgresTestServer.execute(on: database, """
                    UPDATE taskflow_job SET state = 'running', lease_owner = \(owner),
                        due_at = \(Date() + leaseSeconds), claim = claim + 1 WHERE id = \(id.rawValue)
                    """)
            } recordProcess: { owner, leaseSeconds, silentSeconds in
                let beat = Date() - silentSeconds
                try await PostgresTestServer.execute(on: database, """
                    INSERT INTO taskflow_worker (owner, host, pid, workers, lease_seconds, started_at, heartbeat_at)
                    VALUES (\(owner), 'elsewhere', 1, 1, \(leaseSeconds), \(beat), \(beat))
                    """)
            } downgradeToFirstSchema: {
                try await PostgresTestServer.execute(on: database, "DROP TABLE taskflow_worker")
                try await PostgresTestServer.execute(on: database, "DROP INDEX taskflow_job_state, taskflow_job_kind")
                // Schema 4's flow journal and schema 5's column too: each is applied again.
                try await PostgresTestServer.execute(on: database, "DROP TABLE taskflow_flow_step, taskflow_flow, taskflow_flow_ids")
                try await PostgresTestServer.execute(on: database, "ALTER TABLE taskflow_job DROP COLUMN trace_context")
                try await PostgresTestServer.execute(on: database, "DELETE FROM taskflow_schema WHERE version >= 2")
            } tamper: { _, postgres in
                // One statement per query (the extended protocol's rule); the tests' have no `;` inside.
                for statement in postgres.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                    try await PostgresTestServer.execute(on: database, PostgresQuery(unsafeSQL: String(statement)))
                }
            }
        }
    }

    /// Every backend: the semantics tests.
    static let all: [StoreFactory] = [.inMemory, .sqliteFile] + [postgres].compactMap { $0 }
    /// The backends in this process, for tests of the store's own logic that open many stores.
    static let local: [StoreFactory] = [.inMemory, .sqliteFile]
    /// Backends whose data outlives a store and can be shared by several: reopen and sharing tests.
    static let durable: [StoreFactory] = [.sqliteFile] + [postgres].compactMap { $0 }
}

/// Where a test's stores live.
struct StorePlace: Sendable {
    /// What another process opens to share the data (the crash probe's STORE argument): the
    /// SQLite file or the database URL; nil in memory.
    let address: String?
    private let opener: @Sendable (Duration, JobStoreOptions) async throws -> JobStore
    /// Writes a claim of a job by a worker the test cannot see (another process or host).
    let markClaimed: @Sendable (StoredJobID, _ owner: String, _ leaseSeconds: Double) async throws -> Void
    /// Records a worker process on another host, as its last heartbeat, `silentSeconds` ago, left it.
    let recordProcess: @Sendable (_ owner: String, _ leaseSeconds: Double, _ silentSeconds: Double) async throws -> Void
    /// Turns the data into what the first schema (jobs, no worker heartbeats, no index by kind,
    /// no flow journal) wrote, as an older TaskFlow left it.
    let downgradeToFirstSchema: @Sendable () async throws -> Void
    /// Runs SQL on the data as another program could (the SQLite form, the PostgreSQL form):
    /// values of any type in any column, constraints aside where the database allows.
    let tamper: @Sendable (_ sqlite: String, _ postgres: String) async throws -> Void

    init(
        address: String?, opener: @escaping @Sendable (Duration, JobStoreOptions) async throws -> JobStore,
        markClaimed: @escaping @Sendable (StoredJobID, String, Double) async throws -> Void = { _, _, _ in
            Issue.record("this backend keeps no data outside the store")
        },
        recordProcess: @escaping @Sendable (String, Double, Double) async throws -> Void = { _, _, _ in
            Issue.record("this backend keeps no data outside the store")
        },
        downgradeToFirstSchema: @escaping @Sendable () async throws -> Void = {
            Issue.record("this backend keeps no data outside the store")
        },
        tamper: @escaping @Sendable (String, String) async throws -> Void = { _, _ in
            Issue.record("this backend keeps no data outside the store")
        }
    ) {
        self.address = address
        self.opener = opener
        self.markClaimed = markClaimed
        self.recordProcess = recordProcess
        self.downgradeToFirstSchema = downgradeToFirstSchema
        self.tamper = tamper
    }

    /// A store here, polling fast so that tests never wait long for a wake-up they did not ring.
    /// With `clock` (a ``StoreClock`` following a `TestClock`), its workers wait on the test's
    /// clock and date what they write by it: the test moves their time.
    /// `logger` is the store's (``JobStoreOptions/logger``).
    func open(
        lease: Duration = .seconds(30), recheck: Duration = .seconds(60), clock: StoreClock? = nil, logger: Logger? = nil
    ) async throws -> JobStore {
        var options = JobStoreOptions()
        if let logger { options.logger = logger }
        options.pollInterval = .milliseconds(10)
        options.recheckInterval = recheck
        if let clock { options.clock = clock }
        return try await opener(lease, options)
    }
}

/// The PostgreSQL server the tests may use: `TASKFLOW_TEST_POSTGRES_URL` (the password in
/// `PGPASSWORD`), each test place a database of its own on it.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["TASKFLOW_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// The CA of the server's certificate, for the TLS tests.
    static let certificateAuthority = ProcessInfo.processInfo.environment["TASKFLOW_TEST_POSTGRES_CA"]

    private static let logger = Logger(label: "taskflow.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A new empty database; its URL.
    static func createDatabase() async throws -> String {
        guard let url else { throw CocoaError(.featureUnsupported) }
        let name = "taskflow_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await execute(on: url, "CREATE DATABASE \(unescaped: name)")
        return url.replacingOccurrences(of: "/postgres", with: "/\(name)")
    }

    /// Runs one statement on the database at `databaseURL`.
    static func execute(on databaseURL: String, _ query: PostgresQuery) async throws {
        let url = try PostgresURL(databaseURL)
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user,
            password: ProcessInfo.processInfo.environment["PGPASSWORD"], database: url.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(60)  // as the suite's stores wait (see `postgres`)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            try await connection.query(query, logger: logger)
        } catch {
            try? await connection.closeGracefully()
            throw error
        }
        try await connection.closeGracefully()
    }
}

/// A new empty directory under the system's temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension JobStoreOptions {
    /// These options with a minute for each PostgreSQL request. The suite's requests are never
    /// lost, only slow: under ThreadSanitizer, with every store test at once on two cores, the
    /// test server answered some after 10 s (the default), failing tests for no fault of the store.
    var patient: JobStoreOptions {
        var options = self
        options.requestTimeout = .seconds(60)
        return options
    }
}
