import Foundation
import TaskFlowDashboard
import TaskFlowStore

/// The SQLite job store as the dashboard's jobs view sees it.
struct StoreJobSource: JobStoreSource {
    let store: JobStore
    let name: String

    func jobs() async throws -> [StoredJobRow] {
        try await store.jobs().map(StoredJobRow.init)
    }

    func retry(_ id: Int64) async throws {
        try await store.retryFailed(StoredJobID(id))
    }

    func cancel(_ id: Int64) async throws {
        try await store.cancel(StoredJobID(id))
    }

    func conditionsChanged() {
        store.conditionsChanged()
    }
}

extension StoredJobRow {
    /// A stored job as the dashboard and the CLI show it: payload redacted.
    init(_ job: StoredJobInfo) {
        let state: State = switch job.state {
        case .pending: .pending
        case .running: .running
        case .parked: .parked
        case .scheduled: .scheduled
        case .failed: .failed
        }
        self.init(
            id: job.id.rawValue, kind: job.kind, state: state, retries: job.retries, dueAt: job.dueAt,
            leaseOwner: job.leaseOwner, lastError: job.lastError, isRecovery: job.isRecovery,
            payload: PayloadRedaction.redacted(job.payload))
    }
}
