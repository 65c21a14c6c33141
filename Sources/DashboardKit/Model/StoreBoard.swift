import Foundation
import TaskFlow

/// What the dashboard last learned of a durable job store: its jobs as last listed, and when,
/// so countdowns run on between two listings.
package struct StoreBoard: Sendable, Hashable {
    /// The store's name as shown (its path).
    package let name: String
    /// Its oldest jobs, oldest first, as last listed.
    package private(set) var rows: [StoredJobRow] = []
    /// How many jobs it holds in each state, as last listed (all of them, not only ``rows``).
    package private(set) var counts: [StoredJobRow.State: Int] = [:]
    /// The processes running workers on it, as last listed.
    package private(set) var processes: [WorkerProcessRow] = []
    /// The wall-clock time of the last listing.
    package private(set) var listedAt: Date?
    /// The dashboard's time at the last listing.
    package private(set) var listedAtTime = Duration.zero
    /// Why the last listing failed, if it did (the rows are the ones before).
    package private(set) var error: String?
    /// The source's switches, each flipped with a key of its own, as last listed.
    package private(set) var switches: [StoreSwitch] = []
    /// How long this process's runs of each kind took (``JobStoreSource/runs()``): bounded as
    /// every ``TitledHistograms`` is.
    package private(set) var runs = TitledHistograms()

    /// A store not listed yet.
    package init(name: String) {
        self.name = name
    }

    /// Takes a listing made at `date`, which is `time` on the dashboard's clock.
    mutating func update(_ listing: StoreListing, switches: [StoreSwitch], listedAt date: Date, time: Duration) {
        (rows, counts, processes) = (listing.rows, listing.counts, listing.processes)
        self.switches = switches
        (listedAt, listedAtTime) = (date, time)
        error = nil
    }

    /// Takes in a run that ended.
    mutating func record(_ run: StoredJobRun) {
        runs.record(run.duration, for: run.kind)
    }

    /// The switch of `key` as it will be once flipped, until the next listing says: a second
    /// press before that listing must flip it back, not again the same way. Returns it.
    mutating func flip(_ key: Character) -> StoreSwitch? {
        guard let index = switches.firstIndex(where: { $0.key == key }) else { return nil }
        switches[index] = switches[index].flipped
        return switches[index]
    }

    /// Keeps the rows, and says why they could not be refreshed.
    mutating func fail(_ message: String) {
        error = message
    }

    /// The job with this id, if listed.
    package func row(_ id: StoredJobRow.ID) -> StoredJobRow? {
        rows.first { $0.id == id }
    }

    /// How long until `date` at `now` on the dashboard's clock (negative once past).
    package func remaining(until date: Date, now: Duration) -> Duration {
        guard let listedAt else { return .zero }
        return .seconds(date.timeIntervalSince(listedAt)) - (now - listedAtTime)
    }

    /// How long ago `date` was at `now` on the dashboard's clock: a heartbeat's age, growing
    /// between two listings.
    package func age(of date: Date, now: Duration) -> Duration {
        .zero - remaining(until: date, now: now)
    }

    /// How many jobs the store holds beyond ``rows``.
    package var unlisted: Int {
        max(counts.values.reduce(0, +) - rows.count, 0)
    }
}
