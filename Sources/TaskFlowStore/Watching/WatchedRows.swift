import Foundation
import TaskFlow

extension StoredJobRow {
    /// A stored job as watchers and the CLI show it: its text redacted (its payload is
    /// `redactedPayload` when the caller redacted it already).
    package init(_ job: StoredJobInfo, redactedPayload: String? = nil) {
        let text = job.redactedText
        self.init(
            id: ID(job.id.rawValue), kind: text.kind, state: State(job.state), retries: job.retries, dueAt: job.dueAt,
            leaseOwner: text.leaseHolder, lastError: text.lastError, isRecovery: job.isRecovery, payload: redactedPayload ?? text.payload,
            damage: text.damage)
    }
}

extension WorkerProcessRow {
    /// A worker process as watchers show it.
    package init(_ process: StoredWorkerProcess) {
        self.init(
            host: process.host, pid: process.pid, workers: process.workers, runningJobs: process.runningJobs,
            lease: process.lease, lastHeartbeat: process.lastHeartbeat, isThisStore: process.isThisStore,
            damage: process.damage)
    }
}

extension StoredJobRow.State {
    /// The store's state under the watchers' name.
    package init(_ state: StoredJobState) {
        self = switch state {
        case .pending: .pending
        case .running: .running
        case .parked: .parked
        case .scheduled: .scheduled
        case .failed: .failed
        case .damaged: .damaged
        }
    }
}
