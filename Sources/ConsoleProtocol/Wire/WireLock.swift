import TaskFlow

/// A ``LockMode`` as it travels: `{"mode": "idle"}`, `{"mode": "read", "count": 2}`,
/// `{"mode": "write", "flow": 3}`.
package struct WireLockMode: Codable, Sendable {
    /// The mode.
    package let core: LockMode

    /// The wire form of `core`.
    package init(_ core: LockMode) { self.core = core }

    private enum Name: String, WireCases { case idle, read, write }
    private enum CodingKeys: String, CodingKey { case mode, count, flow }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decodeNamed(Name.self, forKey: .mode) {
        case .idle: core = .idle
        case .read: core = .read(count: try c.decode(Int.self, forKey: .count))
        case .write: core = .write(FlowID(try c.decode(Int.self, forKey: .flow)))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch core {
        case .idle: try c.encode(Name.idle.rawValue, forKey: .mode)
        case .read(let count):
            try c.encode(Name.read.rawValue, forKey: .mode)
            try c.encode(count, forKey: .count)
        case .write(let id):
            try c.encode(Name.write.rawValue, forKey: .mode)
            try c.encode(id.rawValue, forKey: .flow)
        }
    }
}

/// A ``LockEvent`` as it travels: `{"holder": {...}, "change": "admitted", "mode": {...}, "waiting": 0}`.
package struct WireLockEvent: Codable, Sendable {
    /// The change.
    package let core: LockEvent

    /// The wire form of `core`.
    package init(_ core: LockEvent) { self.core = core }

    private enum Change: String, WireCases { case enqueued, admitted, released, withdrawn }
    private enum CodingKeys: String, CodingKey { case holder, change, mode, waiting }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let change: LockEvent.Change =
            switch try c.decodeNamed(Change.self, forKey: .change) {
            case .enqueued: .enqueued
            case .admitted: .admitted
            case .released: .released
            case .withdrawn: .withdrawn
            }
        core = LockEvent(
            holder: try c.decode(WireFlowInfo.self, forKey: .holder).core, change: change,
            mode: try c.decode(WireLockMode.self, forKey: .mode).core, waiting: try c.decode(Int.self, forKey: .waiting))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let change: Change =
            switch core.change {
            case .enqueued: .enqueued
            case .admitted: .admitted
            case .released: .released
            case .withdrawn: .withdrawn
            }
        try c.encode(WireFlowInfo(core.holder), forKey: .holder)
        try c.encode(change.rawValue, forKey: .change)
        try c.encode(WireLockMode(core.mode), forKey: .mode)
        try c.encode(core.waiting, forKey: .waiting)
    }
}

/// A ``LockSnapshot`` as it travels: `{"mode": {...}, "holders": [...], "queue": [...]}`.
package struct WireLockSnapshot: Codable, Sendable {
    /// The lock.
    package let core: LockSnapshot

    /// The wire form of `core`.
    package init(_ core: LockSnapshot) { self.core = core }

    private enum CodingKeys: String, CodingKey { case mode, holders, queue }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = LockSnapshot(
            mode: try c.decode(WireLockMode.self, forKey: .mode).core,
            holders: try c.decode([WireFlowInfo].self, forKey: .holders).map(\.core),
            queue: try c.decode([WireFlowInfo].self, forKey: .queue).map(\.core))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WireLockMode(core.mode), forKey: .mode)
        try c.encode(core.holders.map(WireFlowInfo.init), forKey: .holders)
        try c.encode(core.queue.map(WireFlowInfo.init), forKey: .queue)
    }
}
