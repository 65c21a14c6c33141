/// A job queue as it travels: `{"title", "maxConcurrent", "isBlocking", "isPaused"}`.
package struct WireQueueDescription: Codable, Sendable, Hashable {
    /// The queue's title, as in its events.
    package var title: String
    /// How many jobs it runs at once.
    package var maxConcurrent: Int
    /// True for a blocking-work queue.
    package var isBlocking: Bool
    /// Whether it is paused.
    package var isPaused: Bool

    /// Describes a queue.
    package init(title: String, maxConcurrent: Int, isBlocking: Bool, isPaused: Bool) {
        self.title = title
        self.maxConcurrent = maxConcurrent
        self.isBlocking = isBlocking
        self.isPaused = isPaused
    }
}
