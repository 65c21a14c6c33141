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
