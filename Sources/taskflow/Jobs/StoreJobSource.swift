import Foundation
import TaskFlowDashboard
import TOMLSource
import TaskFlowStore

/// The SQLite job store as the dashboard's jobs view sees it.
struct StoreJobSource: JobStoreSource {
    let store: JobStore
    let name: String
    private let payloads = RedactedPayloads()

    init(store: JobStore, name: String) {
        self.store = store
        self.name = name
    }

    func listing(limit: Int) async throws -> StoreListing {
        let rows = await payloads.rows(for: try await store.jobs(matching: StoredJobQuery(limit: limit)))
        let counts = try await store.jobCounts()
        let processes = try await store.workerProcesses().map(WorkerProcessRow.init)
        return StoreListing(
            rows: rows, counts: Dictionary(uniqueKeysWithValues: counts.map { (StoredJobRow.State($0.key), $0.value) }),
            processes: processes)
    }

    func retry(_ id: StoredJobRow.ID) async throws {
        try await store.retryFailed(StoredJobID(id.rawValue))
    }

    func cancel(_ id: StoredJobRow.ID) async throws {
        try await store.cancel(StoredJobID(id.rawValue))
    }

    func conditionsChanged() {
        store.conditionsChanged()
    }
}

extension StoredJobRow {
    /// A stored job as the dashboard and the CLI show it: its text redacted (its payload is
    /// `redactedPayload` when the caller redacted it already).
    init(_ job: StoredJobInfo, redactedPayload: String? = nil) {
        let text = job.redactedText
        self.init(
            id: ID(job.id.rawValue), kind: text.kind, state: State(job.state), retries: job.retries, dueAt: job.dueAt,
            leaseOwner: text.leaseHolder, lastError: text.lastError, isRecovery: job.isRecovery, payload: redactedPayload ?? text.payload,
            damage: text.damage)
    }
}

extension WorkerProcessRow {
    /// A worker process as the dashboard shows it.
    init(_ process: StoredWorkerProcess) {
        self.init(
            host: process.host, pid: process.pid, workers: process.workers, runningJobs: process.runningJobs,
            lease: process.lease, lastHeartbeat: process.lastHeartbeat, isThisStore: process.isThisStore,
            damage: process.damage)
    }
}

extension StoredJobRow.State {
    /// The store's state under the dashboard's name.
    init(_ state: StoredJobState) {
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

extension StoreJobSource {
    func changes() -> AsyncStream<EventText.Line> {
        let events = store.changes
        return AsyncStream { continuation in
            let relay = Task {
                for await event in events { continuation.yield(Self.line(for: event)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// `job 12 send-email failed: 550 no such mailbox`: the store's event in the log's words,
    /// what came from the job redacted and escaped.
    static func line(for event: StoredJobEvent) -> EventText.Line {
        func job(_ id: StoredJobID, _ kind: String) -> String { "job \(id) \(shown(kind))" }
        switch event {
        case .submitted(let id, let kind): return EventText.Line(text: "\(job(id, kind)) submitted", level: .info)
        case .started(let id, let kind, let attempt):
            let recovery = attempt.isRecovery ? " (recovery: it may have run before)" : ""
            return EventText.Line(text: "\(job(id, kind)) started, retries \(attempt.retries)\(recovery)", level: .info)
        case .parked(let id, let kind): return EventText.Line(text: "\(job(id, kind)) parked until conditions change", level: .warning)
        case .retryScheduled(let id, let kind, let retries, let at, let reason):
            let delay = String(format: "%.1fs", max(at.timeIntervalSinceNow, 0))
            return EventText.Line(text: "\(job(id, kind)) retry \(retries) in \(delay): \(shown(reason))", level: .warning)
        case .succeeded(let id, let kind): return EventText.Line(text: "\(job(id, kind)) succeeded", level: .info)
        case .failed(let id, let kind, let reason):
            return EventText.Line(text: "\(job(id, kind)) failed: \(shown(reason))", level: .error)
        case .recovered(let id, let kind): return EventText.Line(text: "\(job(id, kind)) recovered from a worker that died", level: .warning)
        case .requeued(let id, let kind): return EventText.Line(text: "\(job(id, kind)) queued again", level: .info)
        case .cancelled(let id, let kind): return EventText.Line(text: "\(job(id, kind)) cancelled", level: .warning)
        case .purged(let count): return EventText.Line(text: "\(count) failed job(s) purged", level: .info)
        case .storeError(let message): return EventText.Line(text: "job store: \(shown(message))", level: .error)
        }
    }

    private static func shown(_ text: String) -> String {
        JobRedaction.redacted(text).escapingControlCharacters
    }
}
