import Foundation
import TaskFlow

/// A ``StoreListing`` as it travels: `{"rows": [...], "counts": {"pending": 3, …}, "processes": [...]}`.
package struct WireStoreListing: Codable, Sendable {
    /// The listing.
    package let core: StoreListing

    /// The wire form of `core`.
    package init(_ core: StoreListing) { self.core = core }

    private enum CodingKeys: String, CodingKey { case rows, counts, processes }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var counts: [StoredJobRow.State: Int] = [:]
        // A state this build does not know (a newer program's) is left out, as unknown fields are.
        for (name, count) in try c.decode([String: Int].self, forKey: .counts) {
            if let state = StoredJobRow.State(rawValue: name) { counts[state] = count }
        }
        core = StoreListing(
            rows: try c.decode([WireStoredJobRow].self, forKey: .rows).map(\.core), counts: counts,
            processes: try c.decodeIfPresent([WireWorkerProcessRow].self, forKey: .processes)?.map(\.core) ?? [])
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.rows.map(WireStoredJobRow.init), forKey: .rows)
        try c.encode(Dictionary(uniqueKeysWithValues: core.counts.map { ($0.key.rawValue, $0.value) }), forKey: .counts)
        try c.encode(core.processes.map(WireWorkerProcessRow.init), forKey: .processes)
    }
}

/// A ``StoredJobRow`` as it travels, its times as seconds since 1970 (`dueAt`), its text as the
/// store redacted it.
package struct WireStoredJobRow: Codable, Sendable {
    /// The row.
    package let core: StoredJobRow

    /// The wire form of `core`.
    package init(_ core: StoredJobRow) { self.core = core }

    private enum CodingKeys: String, CodingKey {
        case id, kind, state, retries, dueAt, leaseOwner, lastError, isRecovery, payload, damage
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = StoredJobRow(
            id: StoredJobRow.ID(try c.decode(Int64.self, forKey: .id)), kind: try c.decode(String.self, forKey: .kind),
            state: try c.decodeNamed(StoredJobRow.State.self, forKey: .state), retries: try c.decode(Int.self, forKey: .retries),
            dueAt: try c.decodeIfPresent(Double.self, forKey: .dueAt).map(Date.init(wireTimestamp:)),
            leaseOwner: try c.decodeIfPresent(String.self, forKey: .leaseOwner),
            lastError: try c.decodeIfPresent(String.self, forKey: .lastError),
            isRecovery: try c.decodeIfPresent(Bool.self, forKey: .isRecovery) ?? false,
            payload: try c.decode(String.self, forKey: .payload), damage: try c.decodeIfPresent(String.self, forKey: .damage))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.id.rawValue, forKey: .id)
        try c.encode(core.kind, forKey: .kind)
        try c.encode(core.state.rawValue, forKey: .state)
        try c.encode(core.retries, forKey: .retries)
        try c.encodeIfPresent(core.dueAt?.timeIntervalSince1970, forKey: .dueAt)
        try c.encodeIfPresent(core.leaseOwner, forKey: .leaseOwner)
        try c.encodeIfPresent(core.lastError, forKey: .lastError)
        try c.encode(core.isRecovery, forKey: .isRecovery)
        try c.encode(core.payload, forKey: .payload)
        try c.encodeIfPresent(core.damage, forKey: .damage)
    }
}

/// A ``WorkerProcessRow`` as it travels, its heartbeat as seconds since 1970.
package struct WireWorkerProcessRow: Codable, Sendable {
    /// The row.
    package let core: WorkerProcessRow

    /// The wire form of `core`.
    package init(_ core: WorkerProcessRow) { self.core = core }

    private enum CodingKeys: String, CodingKey {
        case host, pid, workers, runningJobs, lease, lastHeartbeat, isThisStore, damage
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = WorkerProcessRow(
            host: try c.decode(String.self, forKey: .host), pid: try c.decode(Int32.self, forKey: .pid),
            workers: try c.decode(Int.self, forKey: .workers), runningJobs: try c.decode(Int.self, forKey: .runningJobs),
            lease: try c.decode(WireDuration.self, forKey: .lease).core,
            lastHeartbeat: Date(wireTimestamp: try c.decode(Double.self, forKey: .lastHeartbeat)),
            isThisStore: try c.decodeIfPresent(Bool.self, forKey: .isThisStore) ?? false,
            damage: try c.decodeIfPresent(String.self, forKey: .damage))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.host, forKey: .host)
        try c.encode(core.pid, forKey: .pid)
        try c.encode(core.workers, forKey: .workers)
        try c.encode(core.runningJobs, forKey: .runningJobs)
        try c.encode(WireDuration(core.lease), forKey: .lease)
        try c.encode(core.lastHeartbeat.timeIntervalSince1970, forKey: .lastHeartbeat)
        try c.encode(core.isThisStore, forKey: .isThisStore)
        try c.encodeIfPresent(core.damage, forKey: .damage)
    }
}

extension Date {
    /// The date `seconds` after 1970 as a peer wrote it, within ten thousand years either way
    /// (NaN counts as 1970): the screens turn the time to it into a `Duration`, which stops the
    /// process on a value it cannot hold (1e300, infinity).
    package init(wireTimestamp seconds: Double) {
        let limit = 10_000 * 365.25 * 86_400
        self.init(timeIntervalSince1970: seconds.isNaN ? 0 : min(max(seconds, -limit), limit))
    }
}
