import Foundation

/// Reading a worker process's stored row (its last heartbeat), the same for every backend: in
/// range, or damaged with the reason — a pid of 2^40 or a lease of 1e308 in a file is listed as
/// damaged, never trapped on.
package enum WorkerRowDecoding {
    /// The process in `row` (columns `owner`, `host`, `pid`, `workers`, `lease` in seconds,
    /// `started_at`, `heartbeat_at`), holding `runningJobs` jobs.
    package static func process(_ row: StoredRow, runningJobs: Int) -> StoredWorkerProcess {
        do throws(RowDamage) {
            return StoredWorkerProcess(
                owner: try row.text("owner"), host: try row.text("host"),
                pid: Int32(try row.integer("pid", in: 1...Int64(Int32.max), "a process id")),
                workers: Int(try row.integer("workers", in: 0...Int64(Int32.max), "a number of workers")),
                runningJobs: runningJobs,
                lease: .seconds(try row.seconds("lease", in: 0...StoredRow.latestTime, "a number of seconds")),
                startedAt: try row.time("started_at"), lastHeartbeat: try row.time("heartbeat_at"))
        } catch {
            return .damaged(
                owner: (try? row.text("owner")) ?? row.value("owner").described, host: try? row.text("host"),
                runningJobs: runningJobs, reason: error.reason)
        }
    }
}
