import Foundation
import TaskFlow

/// A job store is what the dashboard's stored jobs view and a program's console watch and steer:
/// hand it to `Dashboard(title:manager:queues:store:)` or `ConsoleServer(manager:queues:store:)`.
extension JobStore: JobStoreSource {
    /// The oldest `limit` jobs, the count in each state and the processes running workers, the
    /// rows' text redacted (each payload once, not at every listing).
    public func listing(limit: Int) async throws -> StoreListing {
        let rows = await redactedPayloads.rows(for: try await jobs(matching: StoredJobQuery(limit: limit)))
        let counts = try await jobCounts()
        let processes = try await workerProcesses().map(WorkerProcessRow.init)
        return StoreListing(
            rows: rows, counts: Dictionary(uniqueKeysWithValues: counts.map { (StoredJobRow.State($0.key), $0.value) }),
            processes: processes)
    }

    /// This store's changes from now on (``changes``), as log lines, redacted and escaped.
    public func changeLog() -> AsyncStream<LogLine> {
        let events = changes
        return AsyncStream { continuation in
            let relay = Task {
                for await event in events { continuation.yield(event.logLine) }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// The runs this process's workers finish from now on, with their executors' durations.
    public func runs() -> AsyncStream<StoredJobRun> {
        environment.events.subscribeRuns()
    }

    /// Queues a failed job again now (``retryFailed(_:)``).
    public func retry(_ id: StoredJobRow.ID) async throws {
        try await retryFailed(StoredJobID(id.rawValue))
    }

    /// Removes a job that is not running (``cancel(_:)-(StoredJobID)``).
    public func cancel(_ id: StoredJobRow.ID) async throws {
        try await cancel(StoredJobID(id.rawValue))
    }
}
