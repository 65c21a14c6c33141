import Foundation
import Testing
@testable import TaskFlowPostgres
import TaskFlowStore
import TaskFlowTestSupport

/// What only the PostgreSQL store has: URLs, passwords, TLS, servers that say no, and workers in
/// other processes woken by NOTIFY. The semantics it shares with SQLite are the rest of the suite.
@Suite("PostgreSQL: URLs and passwords")
struct PostgresURLTests {
    @Test func aURLIsReadLikeLibpqReadsIt() throws {
        let url = try PostgresURL("postgres://ana:s3cr%40t@db.example:6543/jobs?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect((url.user, url.host, url.port, url.database) == ("ana", "db.example", 6543, "jobs"))
        #expect(url.tls == .verifyFull && url.rootCertificate == "/etc/ca.pem")
        #expect(url.redacted == "postgres://ana:‹redacted›@db.example:6543/jobs", "the password never shows")
        let plain = try PostgresURL("postgresql://ana@localhost/jobs")
        #expect(plain.port == 5432 && plain.tls == .prefer && plain.redacted == "postgres://ana@localhost:5432/jobs")
    }

    @Test(arguments: [
        ("http://ana@h/db", "it must start with postgres://"),
        ("postgres://h/db", "no user: write postgres://USER@h/…"),
        ("postgres://ana@h", "no database: end it with /DATABASE"),
        ("postgres://ana@h/db?sslmode=strict", "sslmode must be one of disable, prefer, require, verify-full"),
        ("postgres://ana@h/db?sslrootcert=/ca.pem", "sslrootcert needs sslmode=verify-full"),
        ("postgres://ana:pw@h/db?password=x", "unknown parameter 'password' (known: sslmode, sslrootcert)"),
    ])
    func aBadURLSaysWhatIsWrongWithoutThePassword(text: String, reason: String) {
        #expect(throws: PostgresStoreError.invalidURL(reason)) { try PostgresURL(text) }
        let message = "not a PostgreSQL URL: \(reason) (expected postgres://user@host:port/database?sslmode=require)"
        #expect(PostgresStoreError.invalidURL(reason).description == message)
    }
}

@Suite(
    "PostgreSQL: a real server", .serialized,
    .enabled(if: PostgresTestServer.url != nil,
             "TASKFLOW_TEST_POSTGRES_URL is not set: eval \"$(Scripts/postgres-server.sh start /tmp/taskflow-pg)\" runs these"))
struct PostgresServerTests {
    private var url: String { PostgresTestServer.url ?? "" }
    private var port: String { url.split(separator: ":").last?.split(separator: "/").first.map(String.init) ?? "" }

    @Test func aWrongPasswordIsOneLineNamingTheUserNeverThePassword() async throws {
        let wrong = url.replacingOccurrences(of: "taskflow@", with: "taskflow:not-it@")
        let error = try await #require(throws: PostgresStoreError.self) { try await JobStore.postgres(url: wrong) }
        #expect(error.description == "postgres://taskflow:‹redacted›@127.0.0.1:\(port)/postgres: the server refused user \"taskflow\": "
            + "password authentication failed for user \"taskflow\" (set PGPASSWORD or add the password to ~/.pgpass)")
    }

    @Test func anUnreachableServerFailsAtOnceInOneLine() async throws {
        let started = ContinuousClock.now
        let error = try await #require(throws: PostgresStoreError.self) {
            try await JobStore.postgres(url: "postgres://taskflow@127.0.0.1:1/postgres")
        }
        // Half the pool's minute: what a loaded machine adds to a refused connection stays far below.
        #expect(ContinuousClock.now - started < .seconds(30), "not the pool's minute of retries")
        guard case .unreachable(let server, let reason) = error else { Issue.record("\(error)"); return }
        #expect(server == "postgres://taskflow@127.0.0.1:1/postgres" && reason.contains("Connection refused"))
    }

    @Test func verifyFullChecksTheServersCertificateAgainstTheCA() async throws {
        let authority = try #require(PostgresTestServer.certificateAuthority)
        let database = try await PostgresTestServer.createDatabase()
        let secured = database.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let store = try await JobStore.postgres(url: "\(secured)?sslmode=verify-full&sslrootcert=\(authority)", options: JobStoreOptions().patient)
        try await store.submit(Greeting(name: "over TLS"))
        #expect(try await store.jobs().count == 1)

        // The system's roots do not sign the test server's certificate.
        let error = try await #require(throws: PostgresStoreError.self) {
            try await JobStore.postgres(url: "\(secured)?sslmode=verify-full")
        }
        guard case .tls = error else { Issue.record("expected a TLS failure, got \(error)"); return }
    }

    @Test func aPasswordFileIsReadOnlyWhenOnlyItsOwnerCanReadIt() throws {
        let file = try temporaryDirectory().appendingPathComponent("pgpass").path
        try "# comment\nother:*:*:*:nope\n127.0.0.1:\(port):*:taskflow:p\\:w\\\\d\n".write(toFile: file, atomically: true, encoding: .utf8)
        let parsed = try PostgresURL(url)
        chmod(file, 0o600)
        #expect(PasswordSource.password(for: parsed, environment: ["PGPASSFILE": file]) == "p:w\\d", "escapes removed")
        #expect(PasswordSource.password(for: parsed, environment: ["PGPASSFILE": file, "PGPASSWORD": "env"]) == "env")
        chmod(file, 0o644)
        #expect(PasswordSource.password(for: parsed, environment: ["PGPASSFILE": file]) == nil, "others can read it: ignored, as libpq does")
    }

    @Test func aSubmitInAnotherStoreWakesIdleWorkersAtOnce() async throws {
        let database = try await PostgresTestServer.createDatabase()
        // Time stands still for these workers: only a notification can wake them.
        let clock = TestClock()
        var options = JobStoreOptions().patient
        options.pollInterval = .seconds(60)
        options.clock = StoreClock(following: clock)
        let workers = try await JobStore.postgres(url: database, options: options)
        let ran = Recorder<String>()
        workers.register(Greeting.self, retry: .never) { greeting, _ in
            ran.record(greeting.name)
            return .success
        }
        let polled = clock.now + .seconds(60)
        try await workers.start(workers: 2)
        #expect(await clock.waitForSleep(until: polled, count: 2), "both workers found the queue empty: \(clock.pendingSleeps)")
        let submitter = try await JobStore.postgres(url: database, options: JobStoreOptions().patient)
        try await submitter.submit(Greeting(name: "from elsewhere"))
        #expect(await eventually { ran.all == ["from elsewhere"] }, "woken by NOTIFY: their clock never reaches the poll")
        await workers.stop()
    }
}
