import TaskFlow

/// Everything the program watches, now: sent after the handshake, and again (with ``missed``)
/// when a client that fell behind catches up. Events that follow it apply on top of it.
/// `{"type": "snapshot", "time": 1.25, "flows": [...], "lock": {...}, "undoable": [...],
/// "queues"?: [...], "store"?: "jobs.sqlite", "missed"?: 12}`. The flows' own times (their
/// submission, their steps' starts and ends) are on the same clock as `time`.
package struct SnapshotMessage: Codable, Sendable {
    /// Seconds since the program's feed started.
    package var time: Double
    /// The live flows, by submission order.
    package var flows: [WireFlowSnapshot]
    /// The lock's holders and queue.
    package var lock: WireLockSnapshot
    /// Completed write flows that can still be undone, oldest first.
    package var undoable: [WireFlowInfo]
    /// The program's job queues, when it serves any.
    package var queues: [WireQueueDescription]?
    /// The job store's name, when it serves one.
    package var store: String?
    /// How many messages this client missed while it could not keep up: this snapshot replaces them.
    package var missed: Int?

    /// A snapshot message taken `time` seconds after the feed's `origin`, the instant the
    /// flows' times count from too.
    package init(
        time: Double, manager: ManagerSnapshot, origin: ContinuousClock.Instant, queues: [QueueDescription]? = nil,
        store: String? = nil, missed: Int? = nil
    ) {
        self.time = time
        flows = manager.flows.map { WireFlowSnapshot($0, origin: origin) }
        lock = WireLockSnapshot(manager.lock)
        undoable = manager.undoable.map(WireFlowInfo.init)
        self.queues = queues?.map(WireQueueDescription.init)
        self.store = store
        self.missed = missed
    }

    /// The manager's part, as the program's ``TaskFlowManager/snapshot()`` returned it, its
    /// times placed on a clock whose instant `origin` is the feed's origin.
    package func manager(origin: ContinuousClock.Instant) -> ManagerSnapshot {
        ManagerSnapshot(flows: flows.map { $0.core(origin: origin) }, lock: lock.core, undoable: undoable.map(\.core))
    }
}

/// A flow event: `{"type": "flow", "time": 1.5, "event": {...}}`.
package struct FlowMessage: Codable, Sendable {
    /// When it happened, in seconds since the program's feed started.
    package var time: Double
    /// What happened.
    package var event: WireFlowEvent

    /// A flow event message.
    package init(time: Double, event: FlowEvent) {
        self.time = time
        self.event = WireFlowEvent(event)
    }
}

/// A job queue event: `{"type": "job", "time": 1.5, "event": {...}}`.
package struct JobMessage: Codable, Sendable {
    /// When the feed saw it, in seconds since the program's feed started.
    package var time: Double
    /// What happened.
    package var event: WireJobEvent

    /// A job event message.
    package init(time: Double, event: WireJobEvent) {
        self.time = time
        self.event = event
    }
}

/// A change of the job store, as an event log line: `{"type": "storeChange", "time": 1.5,
/// "text": "job 4 (send-email) succeeded", "level": "info"}`.
package struct StoreChangeMessage: Codable, Sendable, Hashable {
    /// When the feed saw it, in seconds since the program's feed started.
    package var time: Double
    /// The line.
    package var text: String
    /// `info`, `warning` or `error`.
    package var level: LogLevel

    /// A store change message.
    package init(time: Double, line: LogLine) {
        self.time = time
        text = line.text
        level = line.level
    }

    /// The line, as the program's store logged it.
    package var line: LogLine { LogLine(text: text, level: level) }
}

/// The answer to one command: `{"type": "reply", "id": 7, "ok": false, "message": "unknown flow 9"}`.
package struct ReplyMessage: Codable, Sendable {
    /// The command's id.
    package var id: Int
    /// Whether it was carried out.
    package var ok: Bool
    /// Why not, in one line (or a note on success).
    package var message: String?
    /// The store listing `storeList` asked for.
    package var listing: WireStoreListing?

    /// A reply.
    package init(id: Int, ok: Bool, message: String? = nil, listing: WireStoreListing? = nil) {
        self.id = id
        self.ok = ok
        self.message = message
        self.listing = listing
    }
}

/// The program ends the connection: `{"type": "bye", "reason": "program shutting down"}`.
package struct ByeMessage: Codable, Sendable, Hashable {
    /// Why, in one line.
    package var reason: String

    /// A goodbye.
    package init(reason: String) { self.reason = reason }
}

/// The program refuses the client (another protocol major, too many clients):
/// `{"type": "refused", "reason": "client speaks protocol 2.0, this program 1.1"}`.
package struct RefusedMessage: Codable, Sendable, Hashable {
    /// Why, in one line.
    package var reason: String

    /// A refusal.
    package init(reason: String) { self.reason = reason }
}
