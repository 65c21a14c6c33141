/// The identity of a persisted job: unique in its database file and never reused, even after
/// the job was deleted (the table counts up with SQLite's `AUTOINCREMENT`).
public struct StoredJobID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The row id in the store.
    public let rawValue: Int64

    /// Wraps a row id, as read from ``StoredJobInfo/id`` or typed by a user (`jobs show 42`).
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Older jobs have smaller ids: ids follow submission order.
    public static func < (lhs: StoredJobID, rhs: StoredJobID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number, as users type it.
    public var description: String { String(rawValue) }
}
