// A worker process for TaskFlowStore's crash test, which kills it with SIGKILL at a random moment.
//
//     TaskFlowStoreCrashProbe STORE RUNS WORKERS
//
// Opens the job store STORE (an SQLite file, or a postgres:// URL: then several probes share
// it, as worker processes on several hosts would), runs every `crash-probe` job with WORKERS
// workers and records each run (job id, whether it was a recovery) in the SQLite file RUNS
// *before* the job's outcome is committed, so a run that a kill cuts short is still on record.
// Prints "started" once its workers run; exits 0 when no job is left.
import Foundation
import GRDB
import TaskFlowPostgres
import TaskFlowStore

/// The job the crash test submits; its kind and fields match the test's.
struct ProbeJob: StoredJob {
    static let kind = "crash-probe"
    let n: Int
}

func runProbe(store storePath: String, runs runsPath: String, workers: Int) async throws {
    // WAL without fsync, like the store: a record survives the kill, and recording stays cheap.
    var walConfiguration = Configuration()
    walConfiguration.journalMode = .wal
    walConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    let runs = try DatabaseQueue(path: runsPath, configuration: walConfiguration)
    try await runs.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS run (job_id INTEGER NOT NULL, recovery INTEGER NOT NULL)")
    }
    let isShared = storePath.hasPrefix("postgres://")
    let store = isShared ? try await JobStore.postgres(url: storePath, lease: .seconds(5))
        : try JobStore(path: storePath, lease: .seconds(5))
    store.register(ProbeJob.self, retry: .never) { _, attempt in
        // A job takes about a millisecond, like real work, so 10,000 of them last seconds and the
        // test's random kills land mid-run even on a fast, idle machine (no-op jobs finished
        // within the first kill's delay there, and the test proved nothing).
        try await Task.sleep(for: .milliseconds(1))
        try await runs.write { db in
            try db.execute(
                sql: "INSERT INTO run (job_id, recovery) VALUES (?, ?)",
                arguments: [attempt.id.rawValue, attempt.isRecovery])
        }
        return .success
    }
    try await store.start(workers: workers)
    FileHandle.standardOutput.write(Data("started\n".utf8))
    while try await jobsLeft(in: store, path: storePath, isShared: isShared) > 0 {
        try await Task.sleep(for: .milliseconds(20))
    }
    await store.stop()
}

/// How many jobs the store holds. A database shared with other probes may be unreachable for a
/// moment (the test restarts its server): that counts as jobs left.
func jobsLeft(in store: JobStore, path: String, isShared: Bool) async throws -> Int {
    guard isShared else {
        // Counting rows directly is cheaper than listing 10,000 jobs every 20 ms.
        var readOnly = Configuration()
        readOnly.readonly = true
        return try await DatabaseQueue(path: path, configuration: readOnly).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM job") ?? 0
        }
    }
    guard let counts = try? await store.jobCounts() else { return 1 }
    return counts.values.reduce(0, +)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let workers = Int(arguments[3]), workers > 0 else {
    FileHandle.standardError.write(Data("usage: TaskFlowStoreCrashProbe STORE RUNS WORKERS\n".utf8))
    exit(2)
}
do {
    try await runProbe(store: arguments[1], runs: arguments[2], workers: workers)
} catch {
    FileHandle.standardError.write(Data("TaskFlowStoreCrashProbe: \(error)\n".utf8))
    exit(1)
}
