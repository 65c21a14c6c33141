extension StoredJobRow {
    /// A stored job's identity as the dashboard carries it, in rows, selections and commands:
    /// the store's row id, typed so that it is never mistaken for a flow's or a queued job's.
    /// Shown as the number users type (`taskflow jobs show 42`).
    public struct ID: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The row id in the store.
        public let rawValue: Int64

        /// Wraps a store's row id.
        public init(_ rawValue: Int64) { self.rawValue = rawValue }

        /// Older jobs have smaller ids: stores number them in submission order.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The number.
        public var description: String { String(rawValue) }
    }
}
