import Synchronization

/// A scheduled job's identity, unique across all queues of the process and increasing in the
/// order jobs were added, so that events from several queues can share one view.
public struct JobID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, from 1.
    public let rawValue: UInt64

    /// Wraps a number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    private static let counter = Atomic<UInt64>(0)

    /// The next unused identity.
    static func next() -> JobID {
        JobID(counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// Earlier-added jobs order first.
    public static func < (lhs: JobID, rhs: JobID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "job <number>".
    public var description: String { "job \(rawValue)" }
}
