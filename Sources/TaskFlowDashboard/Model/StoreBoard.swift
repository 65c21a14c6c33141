import Foundation

/// What the dashboard last learned of a durable job store: its jobs as last listed, and when,
/// so countdowns run on between two listings.
public struct StoreBoard: Sendable, Hashable {
    /// The store's name as shown (its path).
    public let name: String
    /// Its oldest jobs, oldest first, as last listed.
    public private(set) var rows: [StoredJobRow] = []
    /// How many jobs it holds in each state, as last listed (all of them, not only ``rows``).
    public private(set) var counts: [StoredJobRow.State: Int] = [:]
    /// The processes running workers on it, as last listed.
    public private(set) var processes: [WorkerProcessRow] = []
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
    mutating func update(_ listing: StoreListing, condition: StoreCondition?, listedAt date: Date, time: Duration) {
        (rows, counts, processes) = (listing.rows, listing.counts, listing.processes)
        self.condition = condition
        (listedAt, listedAtTime) = (date, time)
        error = nil
    }

    /// The condition as it will be once `n` took effect, until the next listing says: a second
    /// `n` before that listing must switch it back, not again the same way.
    mutating func switchCondition() {
        condition = condition.map { StoreCondition(name: $0.name, isMet: !$0.isMet) }
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

    /// How long ago `date` was at `now` on the dashboard's clock: a heartbeat's age, growing
    /// between two listings.
    public func age(of date: Date, now: Duration) -> Duration {
        .zero - remaining(until: date, now: now)
    }

    /// How many jobs the store holds beyond ``rows``.
    public var unlisted: Int {
        max(counts.values.reduce(0, +) - rows.count, 0)
    }
}
