import Foundation
@testable import TaskFlowStore

/// A journaled flow as a process left it behind (crashed, or still running elsewhere), written
/// straight into a store's database: what ``DurableFlows/recover()`` finds at start-up.
struct LeftFlow {
    /// One journaled step; `json` nil: no revert recorded (a result-form step cut short).
    struct Step {
        var title: String
        var kind: String? = Unmark.kind
        var json: String?
        var state = "pending"
    }

    var id: Int
    var title: String
    var state = "running"
    var owner: String
    var heartbeat = Date()
    var steps: [Step]

    /// A flow of `title` whose steps mark `names` (each reverted by an ``Unmark`` of its name).
    init(id: Int, title: String, state: String = "running", owner: String, heartbeat: Date = Date(), marks names: [String]) {
        self.id = id
        self.title = title
        self.state = state
        self.owner = owner
        self.heartbeat = heartbeat
        steps = names.map { Step(title: $0, json: #"{"name":"\#($0)"}"#) }
    }

    /// An owner that is this host, this boot and namespace, and a process that exited.
    static func deadOwnerHere() throws -> String {
        let this = LeaseOwner.current()
        return LeaseOwner(host: this.host, boot: this.boot, pid: try deadProcessID(), token: "crashed").encoded
    }

    /// An owner on another host: only its heartbeat tells whether it lives.
    static let ownerElsewhere = "elsewhere boot/pid:[1] 4242 far"
}

extension StorePlace {
    /// Writes `flows` into the journal (the store's schema must exist: open a store first).
    func leave(_ flows: LeftFlow...) async throws {
        for flow in flows {
            try await tamper(sql(flow, postgres: false), sql(flow, postgres: true))
        }
    }

    private func sql(_ flow: LeftFlow, postgres: Bool) -> String {
        let time = flow.heartbeat.timeIntervalSince1970
        let date = postgres ? "to_timestamp(\(time))" : "\(time)"
        var statements = [
            "INSERT INTO \(postgres ? "taskflow_flow" : "flow") (id, title, state, owner, started_at, heartbeat_at) "
                + "VALUES (\(flow.id), \(quoted(flow.title)), \(quoted(flow.state)), \(quoted(flow.owner)), \(date), \(date))",
        ]
        for (index, step) in flow.steps.enumerated() {
            let payload = step.json.map { json in
                let hex = Data(json.utf8).map { String(format: "%02x", $0) }.joined()
                return postgres ? "decode('\(hex)', 'hex')" : "X'\(hex)'"
            }
            statements.append(
                "INSERT INTO \(postgres ? "taskflow_flow_step" : "flow_step") (flow_id, step, title, kind, payload, state) "
                    + "VALUES (\(flow.id), \(index + 1), \(quoted(step.title)), \(step.kind.map(quoted) ?? "NULL"), "
                    + "\(payload ?? "NULL"), \(quoted(step.state)))")
        }
        return statements.joined(separator: ";\n")
    }

    private func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
