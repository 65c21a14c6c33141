import TaskFlow

/// How long flows waited for the lock, on the dashboard's clock: from joining the lock's queue
/// to entering the lock. A flow that entered at once waited zero, so the percentiles also say
/// how often flows wait at all. Memory is bounded: one fixed-size histogram, and the time each
/// flow now in the queue joined it (the queue itself is on the board anyway).
package struct LockWaits: Sendable, Hashable {
    /// Every wait that ended with the flow entering the lock (a flow cancelled while waiting
    /// never entered: its wait is not counted).
    package private(set) var histogram = DurationHistogram()
    /// When each flow now waiting joined the queue.
    private var enqueuedAt: [FlowID: Duration] = [:]

    /// No wait seen yet.
    package init() {}

    /// Takes in a flow found waiting in a snapshot, waiting since `time` (its submission, which
    /// the snapshot told). One whose start is unknown is not taken in: its wait, when it ends,
    /// counts as none rather than as a guess. One already known keeps its start.
    mutating func adopt(waiting id: FlowID, since time: Duration) {
        if enqueuedAt[id] == nil { enqueuedAt[id] = time }
    }

    /// Takes in a change of the lock that happened at `time`.
    mutating func record(_ event: LockEvent, at time: Duration) {
        let id = event.holder.id
        switch event.change {
        case .enqueued:
            enqueuedAt[id] = time
        case .admitted:
            histogram.record(time - (enqueuedAt.removeValue(forKey: id) ?? time))
        case .withdrawn:
            enqueuedAt[id] = nil
        case .released:
            break
        }
    }
}
