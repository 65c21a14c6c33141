/// Who holds the manager's lock right now.
public enum LockMode: Sendable, Hashable, CustomStringConvertible {
    /// Nobody.
    case idle
    /// `count` read flows, together.
    case read(count: Int)
    /// One write flow, alone.
    case write(FlowID)

    /// The dashboard's badge text: "idle", "READ ×n", "WRITE #id".
    public var description: String {
        switch self {
        case .idle: "idle"
        case .read(let count): "READ ×\(count)"
        case .write(let id): "WRITE \(id)"
        }
    }
}

/// A flow as the lock sees it: as a holder or as a waiter.
public typealias LockHolder = FlowInfo

/// One change of the lock, with the lock's state right after it.
public struct LockEvent: Sendable {
    /// What happened to `holder`.
    public enum Change: Sendable, Hashable {
        /// It could not enter at once and joined the end of the queue.
        case enqueued
        /// It entered (at once or from the queue).
        case admitted
        /// It left after holding the lock.
        case released
        /// It left the queue without entering (its flow was cancelled while waiting).
        case withdrawn
    }

    /// The flow concerned.
    public let holder: LockHolder
    /// What happened.
    public let change: Change
    /// The lock's mode after the change.
    public let mode: LockMode
    /// How many flows wait after the change.
    public let waiting: Int

    /// Describes one change of the lock.
    public init(holder: LockHolder, change: Change, mode: LockMode, waiting: Int) {
        self.holder = holder
        self.change = change
        self.mode = mode
        self.waiting = waiting
    }
}

/// The lock at one moment: holders and the waiting queue in admission order.
public struct LockSnapshot: Sendable {
    /// The mode.
    public let mode: LockMode
    /// The flows that hold the lock, in the order they entered.
    public let holders: [LockHolder]
    /// The flows that wait, in the order they arrived. Phase-fair admission may let the readers
    /// in this list enter before a writer that precedes them (when the current writer leaves).
    public let queue: [LockHolder]

    /// Describes the lock at one moment.
    public init(mode: LockMode, holders: [LockHolder], queue: [LockHolder]) {
        self.mode = mode
        self.holders = holders
        self.queue = queue
    }
}
