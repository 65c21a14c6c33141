import TaskFlowTestSupport
import TaskFlowSupport
import TaskFlowStore

/// Collects a store's change events from the moment it is made (the subscription is taken in
/// `init`, so no event after it is missed).
final class ChangeLog: Sendable {
    private let log: StreamLog<StoredJobEvent>

    init(_ store: JobStore) { log = StreamLog(store.changes) }

    var events: [StoredJobEvent] { log.events }

    /// The events about one job, in order.
    func events(of id: StoredJobID) -> [StoredJobEvent] {
        events.filter { $0.jobID == id }
    }

    /// Waits (generously) until the log satisfies `condition`; false if it never does.
    func waitUntil(_ condition: ([StoredJobEvent]) -> Bool) async -> Bool {
        // Two minutes: under ThreadSanitizer beside the whole store suite, 40 runs on PostgreSQL
        // once took longer than the usual 30 s. Only a failing test waits that long.
        await eventually(within: 120) { condition(events) }
    }

    /// Waits until `count` jobs have succeeded or failed.
    func waitForEnds(_ count: Int) async -> Bool {
        await waitUntil { events in events.filter(\.isEnd).count >= count }
    }
}

extension StoredJobEvent {
    /// The event ends a job: success or failure for good.
    var isEnd: Bool {
        switch self {
        case .succeeded, .failed: true
        default: false
        }
    }

    /// A short name for asserting sequences.
    var name: String {
        switch self {
        case .submitted: "submitted"
        case .started: "started"
        case .parked: "parked"
        case .retryScheduled: "retryScheduled"
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .recovered: "recovered"
        case .requeued: "requeued"
        case .cancelled: "cancelled"
        case .purged: "purged"
        case .storeError: "storeError"
        }
    }
}

/// A Boolean flag shared with executors (the "network" of the conditional-retry tests).
final class Flag: Sendable {
    private let value: Protected<Bool>

    init(_ value: Bool = false) { self.value = Protected(value) }

    var isSet: Bool { value.withLock { $0 } }
    func set(_ newValue: Bool = true) { value.withLock { $0 = newValue } }
}
