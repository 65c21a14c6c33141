/// Which waiting job of a queue starts first when a slot frees up: higher priorities first,
/// and within one priority, the job added first (FIFO). A priority orders starts only; it never
/// interrupts a running job.
public enum JobPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Starts after every waiting `normal` and `high` job.
    case low
    /// The default.
    case normal
    /// Starts before every waiting `normal` and `low` job.
    case high

    /// Lower priorities order first.
    public static func < (lhs: JobPriority, rhs: JobPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "low", "normal" or "high".
    public var description: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        }
    }
}
