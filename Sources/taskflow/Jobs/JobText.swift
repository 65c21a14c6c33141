import Foundation
import TOMLSource
import TaskFlowDashboard
import TaskFlowStore

/// How `taskflow jobs` prints jobs: an aligned table, one job's details, or JSON. In the text
/// forms every string that came from a job (kind, error, lease owner) is escaped before it
/// reaches the terminal; JSON escapes control characters as JSON does. Both show a job's text
/// redacted (``StoredJobInfo/redactedText``).
enum JobText {
    /// `ID KIND STATE RETRIES SUBMITTED NOTE`, one row per job; "no jobs" when there are none.
    static func table(_ jobs: [StoredJobInfo], now: Date) -> String {
        guard !jobs.isEmpty else { return "no jobs" }
        let rows = [["ID", "KIND", "STATE", "RETRIES", "SUBMITTED", "NOTE"]] + jobs.map { job in
            ["\(job.id)", job.kind.echoed(), job.state.rawValue, "\(job.retries)", timestamp(job.submittedAt), note(job, now: now)]
        }
        return aligned(rows)
    }

    /// Rows of cells as columns two spaces apart, aligned in terminal columns: a CJK kind takes
    /// two per character, an emoji two.
    static func aligned(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.displayWidth) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// One job, a field per line, the payload last.
    static func details(_ job: StoredJobInfo, now: Date) -> String {
        var lines = StoredJobRow(job).details { .seconds($0.timeIntervalSince(now)) }
        lines.insert("submitted  \(timestamp(job.submittedAt))", at: 4)
        return lines.joined(separator: "\n")
    }

    /// The jobs as a JSON array, their text redacted, payloads embedded as JSON.
    static func json(_ jobs: [StoredJobInfo]) -> String {
        let objects: [[String: Any]] = jobs.map { job in
            let text = job.redactedText
            var object: [String: Any] = [
                "id": job.id.rawValue, "kind": text.kind, "state": job.state.rawValue, "retries": job.retries,
                "submittedAt": timestamp(job.submittedAt), "isRecovery": job.isRecovery,
                "payload": (try? JSONSerialization.jsonObject(with: Data(text.payload.utf8), options: [.fragmentsAllowed])) ?? NSNull(),
            ]
            object["dueAt"] = job.dueAt.map(timestamp)
            object["leaseOwner"] = text.leaseOwner
            object["lastError"] = text.lastError
            return object
        }
        return jsonArray(objects)
    }

    /// Objects as one JSON array, keys sorted.
    static func jsonArray(_ objects: [[String: Any]]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
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
