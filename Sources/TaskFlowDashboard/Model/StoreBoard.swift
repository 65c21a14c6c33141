import Foundation

/// What the dashboard last learned of a durable job store: its jobs as last listed, and when,
/// so countdowns run on between two listings.
public struct StoreBoard: Sendable, Hashable {
    /// The store's name as shown (its path).
    public let name: String
    /// Its jobs, oldest first, as last listed.
    public private(set) var rows: [StoredJobRow] = []
    /// The wall-clock time of the last listing.
    public private(set) var listedAt: Date?
    /// The dashboard's time at the last listing.
    public private(set) var listedAtTime = Duration.zero
    /// Why the last listing failed, if it did (the rows are the ones before).
    public private(set) var error: String?
    /// The condition the user switches with `n`, as last listed.
    public private(set) var condition: StoreCondition?

    /// A store not listed yet.
    public init(name: String) {
        self.name = name
    }

    /// Takes a listing made at `date`, which is `time` on the dashboard's clock.
    mutating func update(_ rows: [StoredJobRow], condition: StoreCondition?, listedAt date: Date, time: Duration) {
        self.rows = rows
        self.condition = condition
        (listedAt, listedAtTime) = (date, time)
        error = nil
    }

    /// Keeps the rows, and says why they could not be refreshed.
    mutating func fail(_ message: String) {
        error = message
    }

    /// The job with this id, if listed.
    public func row(_ id: Int64) -> StoredJobRow? {
        rows.first { $0.id == id }
    }

    /// How long until `date` at `now` on the dashboard's clock (negative once past).
    public func remaining(until date: Date, now: Duration) -> Duration {
        guard let listedAt else { return .zero }
        return .seconds(date.timeIntervalSince(listedAt)) - (now - listedAtTime)
    }

    /// How many jobs are in each state.
    public var counts: [StoredJobRow.State: Int] {
        rows.reduce(into: [:]) { $0[$1.state, default: 0] += 1 }
    }
}
