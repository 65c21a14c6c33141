/// A durable job store the dashboard shows in its jobs view (`Tab`) and steers: the
/// dashboard knows no store backend; the command line adapts one (SQLite today).
public protocol JobStoreSource: Sendable {
    /// The name shown: the store's path.
    var name: String { get }
    /// The oldest `limit` jobs of the store, how many there are in each state (a store may hold
    /// millions, and the view shows a screenful), and the processes running workers on it. The
    /// rows' text (kind, lease owner, last error, payload) comes redacted: the dashboard shows
    /// it as it is.
    func listing(limit: Int) async throws -> StoreListing
    /// What this process's store does from now on (submitted, started, parked, retry
    /// scheduled, succeeded, failed, recovered…), as event log lines. Other processes' changes
    /// show in the listing only.
    func changes() -> AsyncStream<EventText.Line>
    /// Queues a failed job again now.
    func retry(_ id: StoredJobRow.ID) async throws
    /// Removes a job that is not running.
    func cancel(_ id: StoredJobRow.ID) async throws
    /// Conditions changed: every parked job becomes pending, its retry count unchanged.
    func conditionsChanged()
    /// Switches of the source's own that the user flips in the stored jobs view, each with its
    /// key (the outbox demo's network, `n`), as they stand now. The view shows each one's state,
    /// and lists its key in the status bar and the help.
    var switches: [StoreSwitch] { get }
    /// Flips the switch of `key`.
    func flip(_ key: Character)
}

/// What one listing of a job store found.
public struct StoreListing: Sendable, Hashable {
    /// The oldest jobs, oldest first.
    public let rows: [StoredJobRow]
    /// How many jobs the store holds in each state (all of them, not only ``rows``).
    public let counts: [StoredJobRow.State: Int]
    /// The processes running workers on the store, by host then pid.
    public let processes: [WorkerProcessRow]

    /// A listing.
    public init(rows: [StoredJobRow], counts: [StoredJobRow.State: Int], processes: [WorkerProcessRow] = []) {
        self.rows = rows
        self.counts = counts
        self.processes = processes
    }
}

/// A switch of the world a job store's executors see, which the user flips with a key of its
/// own in the stored jobs view: the outbox demo's simulated network. The source contributes the
/// key, the words for it and its state; the dashboard knows nothing of what it means.
public struct StoreSwitch: Sendable, Hashable {
    /// The key that flips it (`n`). A key the view or every view already takes is not bound.
    public let key: Character
    /// What it switches: "network".
    public let name: String
    /// Whether it is on now.
    public let isOn: Bool
    /// How its states read: "up" and "down".
    public let onLabel: String, offLabel: String

    /// A switch of `name` flipped with `key`, whose states read `on` and `off`.
    public init(key: Character, name: String, isOn: Bool, on: String = "on", off: String = "off") {
        self.key = key
        self.name = name
        self.isOn = isOn
        onLabel = on
        offLabel = off
    }

    /// "network up".
    var state: String { "\(name) \(isOn ? onLabel : offLabel)" }

    /// The same switch in the other state.
    var flipped: StoreSwitch { StoreSwitch(key: key, name: name, isOn: !isOn, on: onLabel, off: offLabel) }
}

extension JobStoreSource {
    /// Most stores have no switch.
    public var switches: [StoreSwitch] { [] }

    /// Nothing to flip.
    public func flip(_ key: Character) {}
}
