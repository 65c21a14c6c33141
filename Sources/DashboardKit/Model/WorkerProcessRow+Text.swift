import Foundation
import TaskFlow

extension WorkerProcessRow {
    /// `3.2s ago`, or `silent 42.0s` once the heartbeat is older than the lease (the process
    /// died, hangs or lost the database: its jobs go to other workers), given its age; whole
    /// seconds from a minute on (`silent 3540s`), so that the text stays short.
    package func heartbeatText(age: Duration) -> String {
        if damage != nil { return "damaged" }
        let elapsed = max(age.seconds, 0)
        let seconds = String(format: elapsed < 60 ? "%.1fs" : "%.0fs", elapsed)
        return isSilent(age: age) ? "silent \(seconds)" : "\(seconds) ago"
    }

    /// Whether a heartbeat this old means the process stopped renewing its leases.
    package func isSilent(age: Duration) -> Bool { damage != nil || age > lease }
}
