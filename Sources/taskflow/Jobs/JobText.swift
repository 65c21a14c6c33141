import DashboardKit
import Foundation
import TaskFlow
import TaskFlowStore
import TOMLSource

/// How `taskflow jobs` prints jobs: an aligned table, one job's details, or JSON. In the text
/// forms every string that came from a job (kind, error, lease owner) is escaped before it
/// reaches the terminal; JSON escapes control characters as JSON does. Both show a job's text
/// redacted (``StoredJobInfo/redactedText``).
enum JobText {
    /// The table's heading: `ID KIND STATE RETRIES SUBMITTED NOTE`.
    static let tableHeading = ["ID", "KIND", "STATE", "RETRIES", "SUBMITTED", "NOTE"]

    /// One job's cells in the table, under ``tableHeading``; its payload is not shown (nor read).
    /// A damaged row shows `?` where its values cannot be trusted.
    static func tableRow(_ job: StoredJobInfo, now: Date) -> [String] {
        let submitted = job.damage == nil ? timestamp(job.submittedAt) : "?"
        return [
            "\(job.id)", job.kind.isEmpty ? "?" : job.kind.echoed(), job.state.rawValue, StoredJobRow(job).retriesText,
            submitted, note(job, now: now),
        ]
    }

    /// Rows of cells as columns two spaces apart, aligned in terminal columns: a CJK kind takes
    /// two per character, an emoji two.
    static func aligned(_ rows: [[String]]) -> String {
        aligned(rows, widths: widths(of: rows))
    }

    /// Rows of cells padded to `widths` (terminal columns), two spaces apart; a wider cell
    /// pushes the rest of its row along.
    static func aligned(_ rows: [[String]], widths: [Int]) -> String {
        rows.map { row in
            zip(row, widths).map { cell, width in cell + String(repeating: " ", count: max(width - cell.displayWidth, 0)) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// The widest cell of each column, in terminal columns.
    static func widths(of rows: [[String]]) -> [Int] {
        (rows.first ?? []).indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
    }

    /// One job, a field per line, the payload last.
    static func details(_ job: StoredJobInfo, now: Date) -> String {
        var lines = StoredJobRow(job).details { .seconds($0.timeIntervalSince(now)) }
        if job.damage == nil { lines.insert("submitted  \(timestamp(job.submittedAt))", at: 4) }
        return lines.joined(separator: "\n")
    }

    /// The jobs as a JSON array, their text redacted, payloads embedded as JSON.
    static func json(_ jobs: [StoredJobInfo]) -> String {
        "[" + jobs.map(jsonObject).joined(separator: ",") + "]"
    }

    /// One job as a JSON object, keys sorted, its text redacted and its payload embedded as JSON:
    /// an element of ``json(_:)``'s array, which `jobs list --json` writes a page at a time. A
    /// damaged row says only what is known to be true: the id, the kind if readable, and why.
    static func jsonObject(_ job: StoredJobInfo) -> String {
        let text = job.redactedText
        if let damage = text.damage {
            let object: [String: Any] = [
                "id": job.id.rawValue, "kind": text.kind.isEmpty ? NSNull() : text.kind, "state": job.state.rawValue,
                "damage": damage,
            ]
            return jsonText(object) ?? "{}"
        }
        var object: [String: Any] = [
            "id": job.id.rawValue, "kind": text.kind, "state": job.state.rawValue, "retries": job.retries,
            "submittedAt": timestamp(job.submittedAt), "isRecovery": job.isRecovery,
            "payload": (try? JSONSerialization.jsonObject(with: Data(text.payload.utf8), options: [.fragmentsAllowed])) ?? NSNull(),
        ]
        object["dueAt"] = job.dueAt.map(timestamp)
        object["leaseOwner"] = text.leaseOwner
        object["lastError"] = text.lastError
        return jsonText(object) ?? "{}"
    }

    /// Objects as one JSON array, keys sorted.
    static func jsonArray(_ objects: [[String: Any]]) -> String {
        jsonText(objects) ?? "[]"
    }

    /// An object or array as compact JSON, keys sorted; nil for a value JSON cannot hold.
    private static func jsonText(_ value: Any) -> String? {
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why a job waits, who runs it, or why it failed.
    private static func note(_ job: StoredJobInfo, now: Date) -> String {
        StoredJobRow(job).note { .seconds($0.timeIntervalSince(now)) }
    }

    /// `2026-11-23T18:30:12Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
