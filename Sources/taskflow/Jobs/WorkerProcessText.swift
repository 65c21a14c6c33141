import DashboardKit
import Foundation
import TaskFlow
import TaskFlowStore
import TOMLSource

/// How `taskflow jobs workers` prints the store's worker processes: an aligned table or JSON.
/// Host names come from other processes' rows, so they are escaped before they reach a terminal.
enum WorkerProcessText {
    /// `HOST PID WORKERS RUNNING STARTED HEARTBEAT`, one row per process; a line saying there is
    /// none when no process runs workers.
    static func table(_ processes: [StoredWorkerProcess], now: Date) -> String {
        guard !processes.isEmpty else { return "no process runs workers on this store" }
        let rows = [["HOST", "PID", "WORKERS", "RUNNING", "STARTED", "HEARTBEAT"]] + processes.map { process in
            if let damage = process.damage {
                let host = process.host.isEmpty ? "?" : process.host.echoed()
                return [host, "?", "?", "\(process.runningJobs)", "?", "damaged: \(damage.escapingControlCharacters)"]
            }
            return [
                process.host.echoed() + (process.isThisStore ? " (this)" : ""), "\(process.pid)", "\(process.workers)",
                "\(process.runningJobs)", JobText.timestamp(process.startedAt),
                WorkerProcessRow(process).heartbeatText(age: .seconds(now.timeIntervalSince(process.lastHeartbeat))),
            ]
        }
        return JobText.aligned(rows)
    }

    /// The processes as a JSON array.
    static func json(_ processes: [StoredWorkerProcess], now: Date) -> String {
        JobText.jsonArray(processes.map { process in
            if let damage = process.damage {
                return ["host": process.host, "owner": process.owner, "runningJobs": process.runningJobs, "damage": damage]
            }
            return [
                "host": process.host, "pid": process.pid, "workers": process.workers, "runningJobs": process.runningJobs,
                "leaseSeconds": process.lease.seconds, "startedAt": JobText.timestamp(process.startedAt),
                "lastHeartbeat": JobText.timestamp(process.lastHeartbeat), "isSilent": process.isSilent(at: now),
                "owner": process.owner,
            ]
        })
    }
}
