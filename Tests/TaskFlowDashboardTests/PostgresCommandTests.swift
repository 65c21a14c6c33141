import Foundation
import Testing

/// `--store postgres://…` on the command line and in the dashboard. taskflow speaks PostgreSQL
/// when built with `--traits Postgres` (`.ci/run` runs these so); a default build says how to
/// get it. The server is the one `Scripts/postgres-server.sh` starts.
@Suite("Command line: --store postgres://", .serialized)
struct PostgresCommandTests {
    private static let server = ProcessInfo.processInfo.environment["TASKFLOW_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    #if Postgres
    private static let builtWithPostgres = true
    #else
    private static let builtWithPostgres = false
    #endif

    @Test(.enabled(if: !builtWithPostgres, "taskflow was built with the Postgres trait"))
    func aDefaultBuildSaysHowToGetPostgreSQLSupport() async throws {
        let result = try await TaskflowProcess.run(["jobs", "list", "--store", "postgres://ana:s3cret@db.example/jobs"])
        #expect(result.status == 2)
        #expect(result.standardError == "taskflow: this taskflow was built without PostgreSQL support; "
            + "build it with: swift build --traits Postgres (or swift run --traits Postgres taskflow …)\n")
    }

    /// A new database on the test server; its URL.
    private func database() throws -> String {
        let server = try #require(Self.server)
        let name = "taskflow_cli_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        let psql = Process()
        psql.executableURL = URL(filePath: "/usr/bin/psql")
        psql.arguments = [server, "-qc", "CREATE DATABASE \(name)"]
        try psql.run()
        psql.waitUntilExit()
        try #require(psql.terminationStatus == 0)
        return server.replacingOccurrences(of: "/postgres", with: "/\(name)")
    }

    @Test(.enabled(if: builtWithPostgres && server != nil, "needs taskflow built with --traits Postgres and TASKFLOW_TEST_POSTGRES_URL"))
    func theJobsCommandsWorkOnADatabaseAndNeverShowAPassword() async throws {
        let url = try database()
        func jobs(_ arguments: String..., store: String? = nil) async throws -> TaskflowProcess {
            try await TaskflowProcess.run(["jobs"] + arguments + ["--store", store ?? url])
        }
        let submitted = try await jobs("submit", "send-email", #"{"to":"ann@example.com","token":"t0k"}"#)
        #expect(submitted.status == 0 && submitted.standardOutput == "1\n", "\(submitted.standardError)")
        let list = try await jobs("list")
        #expect(list.standardOutput.contains("1   send-email  pending  0"), "\(list.standardOutput)")
        let shown = try await jobs("show", "1", "--json")
        #expect(shown.standardOutput.contains(#""token":"‹redacted›""#))
        #expect(try await jobs("cancel", "1").status == 0)
        #expect(try await jobs("workers").standardOutput == "no process runs workers on this store\n")
        let missing = try await jobs("show", "1")
        #expect(missing.standardError == "taskflow: no job 1 in \(url)\n")

        let wrong = url.replacingOccurrences(of: "taskflow@", with: "taskflow:hunter2@")
        let refused = try await TaskflowProcess.run(["jobs", "list", "--store", wrong], environment: ["PGPASSWORD": ""])
        #expect(refused.status == 2)
        #expect(refused.standardError.hasPrefix("taskflow: postgres://taskflow:‹redacted›@127.0.0.1:"))
        #expect(!refused.standardError.contains("hunter2") && !refused.standardOutput.contains("hunter2"))
    }

    @Test(.enabled(if: builtWithPostgres && server != nil && Tmux.isInstalled, "needs taskflow built with --traits Postgres, TASKFLOW_TEST_POSTGRES_URL and tmux"))
    func theDashboardShowsADatabasesJobs() async throws {
        let url = try database()
        let submitted = try await TaskflowProcess.run(["jobs", "submit", "send-email", #"{"to":"bo@example.com"}"#, "--store", url])
        #expect(submitted.status == 0, "\(submitted.standardError)")
        let tmux = try Tmux("postgres-view", arguments: "demo built-in --store '\(url)'")
        defer { tmux.close() }
        try await tmux.waitFor("the flows, the stored jobs one Tab away") { $0.contains("Flows — Tab: stored jobs") }
        try tmux.send("Tab")
        try await tmux.waitFor("the database's job") { screen in
            screen.contains("Jobs — \(url)") && screen.contains("#1     send-email        pending   0")
        }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test(.enabled(if: builtWithPostgres && server != nil && Tmux.isInstalled, "needs taskflow built with --traits Postgres, TASKFLOW_TEST_POSTGRES_URL and tmux"))
    func theOutboxDemoRunsOnADatabaseAndListsItsWorkerProcess() async throws {
        let url = try database()
        let tmux = try Tmux("postgres-outbox", arguments: "demo outbox --speed 4 --store '\(url)'")
        defer { tmux.close() }
        try await tmux.waitFor("the dead mailbox failed for good, and the demo's own workers listed") { screen in
            screen.contains("failed    0       550 no such mailbox: nobody@nowhere.example")
                && screen.contains("Worker processes (1)") && screen.contains(" (this)   ")
        }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
        let workers = try await TaskflowProcess.run(["jobs", "workers", "--store", url])
        #expect(workers.standardOutput == "no process runs workers on this store\n", "the quit left the list")
        let failed = try await TaskflowProcess.run(["jobs", "list", "--failed", "--store", url])
        #expect(failed.standardOutput.contains("550 no such mailbox"), "the e-mails are in the database")
    }
}
