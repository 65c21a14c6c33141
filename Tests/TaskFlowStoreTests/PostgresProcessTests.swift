import Foundation
import GRDB
import Testing
import TaskFlowPostgres
import TaskFlowStore
import TaskFlowTestSupport

/// `TASKFLOW_POSTGRES_PROCESSES`: how many jobs the process tests run, when they run at all.
private let configuredProcessJobs = ProcessInfo.processInfo.environment["TASKFLOW_POSTGRES_PROCESSES"].flatMap { Int($0) }

/// Worker processes sharing one PostgreSQL queue, as on several hosts: four probes of four
/// workers each. Every probe records each run in a file of its own before committing it.
/// Five busy processes would starve the suite's timing-sensitive tests running beside them, so
/// these run on their own: `TASKFLOW_POSTGRES_PROCESSES=N` (jobs; `.ci/run` runs 20,000 alone).
@Suite(
    "PostgreSQL: many processes", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: PostgresTestServer.url != nil && configuredProcessJobs != nil,
             "set TASKFLOW_TEST_POSTGRES_URL (Scripts/postgres-server.sh) and TASKFLOW_POSTGRES_PROCESSES=20000 to run these, on their own"))
struct PostgresProcessTests {
    static var jobCount: Int { max(configuredProcessJobs ?? 4_000, 1_000) }

    /// A database holding `jobCount` probe jobs; its URL and their ids.
    private func queue() async throws -> (url: String, ids: Set<Int64>) {
        let url = try await PostgresTestServer.createDatabase()
        let store = try await JobStore.postgres(url: url, options: JobStoreOptions().patient)
        var ids: Set<Int64> = []
        for start in stride(from: 0, to: Self.jobCount, by: 1_000) {
            let batch = try await store.submit(contentsOf: (start..<min(start + 1_000, Self.jobCount)).map(ProbeJob.init))
            ids.formUnion(batch.map(\.rawValue))
        }
        return (url, ids)
    }

    /// How many times each job ran, over every probe's record.
    private func runs(in files: [String]) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for file in files {
            let rows = try DatabaseQueue(path: file).read { db in
                try Row.fetchAll(db, sql: "SELECT job_id, count(*) FROM run GROUP BY job_id")
            }
            for row in rows { counts[row[0], default: 0] += row[1] as Int }
        }
        return counts
    }

    /// Waits until the probes recorded `count` runs. How long that takes is the machine's
    /// business (a debug build ran 20,000 jobs in 80 s on one 2-core machine, 118 s on another),
    /// so the bound is the suite's; a look opens every probe's file, so it is taken every 100 ms,
    /// not in a tight loop that would take CPU from the five busy processes it waits for.
    private func waitForRuns(_ count: Int, in files: [String]) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if ((try? runs(in: files).count) ?? 0) >= count { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func fourProcessesOfFourWorkersRunEveryJobExactlyOnce() async throws {
        let (url, ids) = try await queue()
        let folder = try temporaryDirectory()
        let files = (0..<4).map { folder.appendingPathComponent("runs-\($0).sqlite").path }
        var probes: [CrashProbe] = []
        for file in files { probes.append(try await CrashProbe.start(store: url, runs: file, workers: 4)) }
        for probe in probes { #expect(try await probe.exitStatus() == 0) }
        let counts = try runs(in: files)
        #expect(Set(counts.keys) == ids, "no job missing")
        #expect(counts.values.filter { $0 > 1 }.isEmpty, "no job ran twice: nothing crashed")
        let share = try files.map { try runs(in: [$0]).count }
        #expect(share.allSatisfy { $0 > 0 }, "every process took part: \(share)")
    }

    @Test func aKilledProcessAndARestartedServerLoseNoJob() async throws {
        let data = try #require(ProcessInfo.processInfo.environment["TASKFLOW_TEST_POSTGRES_DATA"])
        let bin = try #require(ProcessInfo.processInfo.environment["TASKFLOW_TEST_POSTGRES_BIN"])
        let (url, ids) = try await queue()
        let folder = try temporaryDirectory()
        let files = (0..<4).map { folder.appendingPathComponent("runs-\($0).sqlite").path }
        var probes: [CrashProbe] = []
        for file in files { probes.append(try await CrashProbe.start(store: url, runs: file, workers: 4)) }
        let watcher = try await JobStore.postgres(url: url, options: JobStoreOptions().patient)

        // Mid-run, kill one process outright: its claimed jobs come back when their lease ends.
        #expect(await waitForRuns(Self.jobCount / 5, in: files))
        #expect(try await probes[0].kill() == SIGKILL)
        var inFlight = Set(try await watcher.jobs().filter { $0.state == .running }.map(\.id.rawValue))

        // Then restart the server under the other three: they reconnect by themselves.
        #expect(await waitForRuns(Self.jobCount / 2, in: files))
        try await offThePool { try restartServer(data: data, bin: bin) }
        inFlight.formUnion(try await watcher.jobs().filter { $0.state == .running }.map(\.id.rawValue))

        for probe in probes.dropFirst() { #expect(try await probe.exitStatus() == 0) }
        let counts = try runs(in: files)
        #expect(Set(counts.keys) == ids, "no job lost")
        let duplicates = Set(counts.filter { $0.value > 1 }.keys)
        #expect(duplicates.isSubset(of: inFlight), "only jobs in flight at a fault ran twice")
        #expect(try await watcher.jobCounts().values.reduce(0, +) == 0)
    }

    /// `pg_ctl restart`, as the server's owner; returns once it accepts connections again. Waits
    /// for it off the cooperative pool (``offThePool(_:)``), like every wait for a process.
    /// Spawned and reaped with `posix_spawn` and `waitpid`: Foundation's `Process` did not see
    /// `runuser` end here (it stayed a zombie and the wait never returned).
    private func restartServer(data: String, bin: String) throws {
        let control = ["\(bin)/pg_ctl", "-D", data, "-m", "fast", "-w", "-t", "60", "restart", "-l", "\(data)/../server.log"]
        let arguments = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + control : control
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0, "spawning pg_ctl")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        #expect(status == 0, "pg_ctl restart")
    }
}
