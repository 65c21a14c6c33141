import Foundation
import TaskFlowStore
import TaskFlowSupport

/// How `taskflow flows` prints journaled flows: an aligned table, one flow's details with its
/// steps, or JSON. Every text from the journal is redacted by the store
/// (``DurableFlowInfo``); the text forms also escape its control characters before they reach
/// the terminal, as JSON escapes them.
enum FlowText {
    /// What a command on a store file that does not exist says to do.
    static let ifMissing = "a program's durable flows create it, or name one with --store"

    /// The table's heading: `ID STATE TITLE OWNER STARTED REASON`.
    static let tableHeading = ["ID", "STATE", "TITLE", "OWNER", "STARTED", "REASON"]

    /// One flow's cells in the table, under ``tableHeading``.
    static func tableRow(_ flow: DurableFlowInfo) -> [String] {
        [
            "\(flow.id.rawValue)", state(flow), flow.title.escapingControlCharacters, owner(flow),
            JobText.timestamp(flow.startedAt), (flow.reason ?? "").escapingControlCharacters,
        ]
    }

    /// One flow, a field per line, then its steps in journal order (rolled back last first).
    static func details(_ flow: DurableFlowInfo) -> String {
        var lines = [
            "flow       \(flow.id.rawValue)", "title      \(flow.title.escapingControlCharacters)", "state      \(state(flow))",
            "owner      \(flow.owner.isEmpty ? "none: the next recover() of a program with its revert handlers takes it" : owner(flow))",
            "started    \(JobText.timestamp(flow.startedAt))", "heartbeat  \(JobText.timestamp(flow.heartbeatAt))",
        ]
        if let reason = flow.reason { lines.append("reason     \(reason.escapingControlCharacters)") }
        lines.append(flow.steps.isEmpty ? "steps      none journaled" : "steps")
        let rows = [["#", "STATE", "KIND", "TITLE", "REVERT"]] + flow.steps.map(stepRow)
        if !flow.steps.isEmpty {
            lines += JobText.aligned(rows).split(separator: "\n").map { "  " + $0 }
            lines += flow.steps.compactMap(stepNote)
        }
        return lines.joined(separator: "\n")
    }

    /// The flows as a JSON array, keys sorted; each step's revert embedded as JSON.
    static func json(_ flows: [DurableFlowInfo]) -> String {
        JobText.jsonArray(flows.map(jsonObject))
    }

    /// A flow's state as the commands name it: `rollback-incomplete`; an unknown stored state
    /// as stored.
    static func state(_ flow: DurableFlowInfo) -> String {
        guard let state = flow.state else { return flow.storedState.escapingControlCharacters }
        return state.rawValue.replacing(/[A-Z]/) { "-" + $0.output.lowercased() }
    }

    private static func owner(_ flow: DurableFlowInfo) -> String {
        flow.owner.isEmpty ? "-" : flow.owner.escapingControlCharacters
    }

    private static func stepRow(_ step: DurableStepInfo) -> [String] {
        [
            "\(step.number)", step.damage == nil ? step.state.escapingControlCharacters : "damaged",
            (step.kind ?? "-").escapingControlCharacters, step.title.escapingControlCharacters,
            (step.revert ?? "-").escapingControlCharacters,
        ]
    }

    /// Why a step's revert failed or its row is damaged, below the steps' table.
    private static func stepNote(_ step: DurableStepInfo) -> String? {
        if let damage = step.damage { return "  #\(step.number) damaged: \(damage.escapingControlCharacters)" }
        return step.lastError.map { "  #\(step.number) last error: \($0.escapingControlCharacters)" }
    }

    private static func jsonObject(_ flow: DurableFlowInfo) -> [String: Any] {
        var object: [String: Any] = [
            "id": flow.id.rawValue, "title": flow.title, "state": state(flow), "owner": flow.owner,
            "startedAt": JobText.timestamp(flow.startedAt), "heartbeatAt": JobText.timestamp(flow.heartbeatAt),
            "steps": flow.steps.map(stepObject),
        ]
        object["reason"] = flow.reason
        return object
    }

    private static func stepObject(_ step: DurableStepInfo) -> [String: Any] {
        var object: [String: Any] = ["number": step.number, "title": step.title, "state": step.state]
        object["kind"] = step.kind
        object["revert"] = step.revert.map { revert in
            (try? JSONSerialization.jsonObject(with: Data(revert.utf8), options: [.fragmentsAllowed])) ?? revert
        }
        object["lastError"] = step.lastError
        object["damage"] = step.damage
        return object
    }
}
