import TaskFlow

/// A ``QueueDescription`` as it travels: `{"title", "maxConcurrent", "isBlocking", "isPaused"}`.
package struct WireQueueDescription: Codable, Sendable, Hashable {
    /// The queue.
    package let core: QueueDescription

    /// The wire form of `core`.
    package init(_ core: QueueDescription) { self.core = core }

    private enum CodingKeys: String, CodingKey { case title, maxConcurrent, isBlocking, isPaused }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = QueueDescription(
            title: try c.decode(String.self, forKey: .title), maxConcurrent: try c.decode(Int.self, forKey: .maxConcurrent),
            isBlocking: try c.decodeIfPresent(Bool.self, forKey: .isBlocking) ?? false,
            isPaused: try c.decodeIfPresent(Bool.self, forKey: .isPaused) ?? false)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.title, forKey: .title)
        try c.encode(core.maxConcurrent, forKey: .maxConcurrent)
        try c.encode(core.isBlocking, forKey: .isBlocking)
        try c.encode(core.isPaused, forKey: .isPaused)
    }
}
