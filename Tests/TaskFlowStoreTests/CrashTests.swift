import Foundation
import GRDB
import TaskFlowStore
import Testing
import TaskFlowTestSupport

/// A real crash: a worker process with 10,000 jobs is killed with SIGKILL at random moments,
/// restarted each time, and finally run to the end. Nothing submitted may be lost, and only jobs
/// that were running at a kill may have run more than once. A few kills by default;
/// `TASKFLOW_STORE_STRESS=1` makes it 25 (what `.ci/run` does).
@Suite("Crash recovery", .serialized)
struct CrashTests {
    static let jobCount = 10_000
    static var kills: Int { ProcessInfo.processInfo.environment["TASKFLOW_STORE_STRESS"] == "1" ? 25 : 3 }

    @Test("kill -9 at random moments loses no job; duplicates only from jobs running at a kill")
    func killRepeatedly() async throws {
        let directory = try temporaryDirectory()
        let storePath = directory.appendingPathComponent("jobs.sqlite").path
        let runsPath = directory.appendingPathComponent("runs.sqlite").path
        let ids: [StoredJobID]
        do {
            let store = try JobStore(path: storePath)
            ids = try await store.submit(contentsOf: (0..<Self.jobCount).map(ProbeJob.init))
        }
        var generator = SeededGenerator(seed: 0x5EED_C0DE)
        var runningAtKills: Set<Int64> = []
        var killedWithJobsLeft = 0
        for _ in 0..<Self.kills {
            let probe = try await CrashProbe.start(store: storePath, runs: runsPath, workers: 4)
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...250, using: &generator)))
            let status = try await probe.kill()
            let (running, left) = try snapshot(storePath)
            // A probe that found the work done may end by itself before the kill lands.
            #expect(status == SIGKILL || (status == 0 && left == 0), "status \(status), \(left) jobs left")
            runningAtKills.formUnion(running)
            guard left > 0 else { break }
            killedWithJobsLeft += 1
        }
        let last = try await CrashProbe.start(store: storePath, runs: runsPath, workers: 4)
        #expect(try await last.exitStatus() == 0)

        #expect(killedWithJobsLeft > 0, "every kill came after the work was done: the test proved nothing")
        #expect(!runningAtKills.isEmpty, "no kill caught a job in flight: the test proved nothing")
        #expect(try snapshot(storePath).left == 0)
        let runs = try DatabaseQueue(path: runsPath).read { db in
            try Row.fetchAll(db, sql: "SELECT job_id, count(*), max(recovery) FROM run GROUP BY job_id")
        }
        let counts = Dictionary(uniqueKeysWithValues: runs.map { (($0[0] as Int64), ($0[1] as Int)) })
        #expect(Set(counts.keys) == Set(ids.map(\.rawValue)), "every job ran at least once")
        let duplicates = Set(counts.filter { $0.value > 1 }.keys)
        #expect(duplicates.isSubset(of: runningAtKills), "only jobs running at a kill ran twice")
        let recoveredFlags = Dictionary(uniqueKeysWithValues: runs.map { (($0[0] as Int64), ($0[2] as Bool)) })
        #expect(duplicates.allSatisfy { recoveredFlags[$0] == true }, "a second run is told it is a recovery")
    }

    /// The ids of the jobs the dead probe held, and how many jobs are left.
    private func snapshot(_ path: String) throws -> (running: Set<Int64>, left: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            let running = try Int64.fetchAll(db, sql: "SELECT id FROM job WHERE state = 'running'")
            let left = try Int.fetchOne(db, sql: "SELECT count(*) FROM job") ?? 0
            return (Set(running), left)
        }
    }
}
