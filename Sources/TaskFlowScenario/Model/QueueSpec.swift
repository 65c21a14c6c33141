/// One `[[queue]]` of a scenario: a ``TaskFlow/JobQueue`` its jobs are added to.
package struct QueueSpec: Sendable, Equatable {
    /// The queue's title, which `[[job]]` tables name in `queue`.
    package var title: String
    /// How many jobs it runs at once (for a blocking queue, its thread count).
    package var maxConcurrent: Int
    /// True for a blocking-work queue (`threads = N`): its jobs run on `maxConcurrent` threads
    /// of its own and block them, as synchronous I/O does, instead of the cooperative pool.
    package var isBlocking: Bool

    /// The most jobs a queue runs at once, and the most threads a blocking queue starts: far
    /// more than a screen shows, few enough that a typo does not start a million threads.
    package static let maximumConcurrency = 1_024

    /// Creates a queue description.
    package init(title: String, maxConcurrent: Int = 1, isBlocking: Bool = false) {
        self.title = title
        self.maxConcurrent = maxConcurrent
        self.isBlocking = isBlocking
    }
}
