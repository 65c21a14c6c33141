import TaskFlow

/// How long each flow now in the lock's queue has waited, and how many read phases began
/// meanwhile: what the starved-writer warning reads (``WarningKind/starvedWriter``). A read
/// phase is a stretch of the lock held for reading: it begins when the lock turns to reading
/// from idle or writing. Memory is bounded by the queue: a flow is forgotten when it leaves it.
package struct LockQueueAges: Sendable, Hashable {
    /// When a flow joined the queue, and the read phases begun before it did.
    package struct Entry: Sendable, Hashable {
        /// When it joined, on the dashboard's clock.
        package let since: Duration
        /// ``LockQueueAges/readPhases`` when it joined.
        package let phasesBefore: Int
    }

    /// How many read phases began since the board started.
    package private(set) var readPhases = 0
    private var entries: [FlowID: Entry] = [:]

    /// Nobody waiting, no read phase yet.
    package init() {}

    /// When `id` joined the queue, if it is in it.
    package func entry(_ id: FlowID) -> Entry? { entries[id] }

    /// How many read phases began since `id` joined the queue (0 when it is not in it).
    package func readPhasesPassed(_ id: FlowID) -> Int {
        entries[id].map { readPhases - $0.phasesBefore } ?? 0
    }

    /// Takes in a change of the lock that happened at `time`, the lock having been in `before`.
    mutating func record(_ event: LockEvent, before: LockMode, at time: Duration) {
        if case .read = event.mode, !before.isRead { readPhases += 1 }
        switch event.change {
        case .enqueued: entries[event.holder.id] = Entry(since: time, phasesBefore: readPhases)
        case .admitted, .withdrawn: entries[event.holder.id] = nil
        case .released: break
        }
    }

    /// Takes in a flow found waiting in a snapshot (an attached dashboard), waiting since `time`:
    /// its submission when the snapshot tells it, else when the dashboard saw it (the earlier
    /// part being unknown). One already known keeps its start.
    mutating func adopt(waiting id: FlowID, at time: Duration) {
        if entries[id] == nil { entries[id] = Entry(since: time, phasesBefore: readPhases) }
    }
}

extension LockMode {
    /// True while flows hold the lock for reading.
    var isRead: Bool {
        if case .read = self { true } else { false }
    }
}
