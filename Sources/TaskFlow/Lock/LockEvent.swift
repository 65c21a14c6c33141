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
