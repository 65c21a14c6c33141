import Foundation

/// Reads the flow journal's rows as stored, whatever another program wrote into them: a flow's
/// values fall back to neutral ones (its state kept as the text it is, for the reader to judge),
/// and a step whose values are not what the journal writes carries the reason
/// (``JournalStepRow/damage``), so that its revert is never run from a guess.
package enum JournalRowDecoding {
    /// A flow's row (`id` is its rowid, an integer in every row).
    package static func flow(id: Int64, _ row: StoredRow) -> JournalFlowRow {
        JournalFlowRow(
            id: id,
            title: (try? row.text("title")) ?? "(unreadable title)",
            state: (try? row.text("state")) ?? "(not text)",
            owner: (try? row.text("owner")) ?? "",
            startedAt: (try? row.time("started_at")) ?? Date(timeIntervalSince1970: 0),
            heartbeatAt: (try? row.time("heartbeat_at")) ?? Date(timeIntervalSince1970: 0),
            reason: try? row.optionalText("reason"))
    }

    /// A step's row; `number` is its position when that is a whole number.
    package static func step(_ row: StoredRow, number: Int?) -> JournalStepRow {
        do throws(RowDamage) {
            guard let number else { throw RowDamage(reason: "step is \(row.value("step").described), not a whole number") }
            let payload: Data? = if case .null = row.value("payload") { nil } else { try row.bytes("payload") }
            return JournalStepRow(
                step: number, title: try row.text("title"), kind: try row.optionalText("kind"), payload: payload,
                state: try row.text("state"), lastError: try row.optionalText("last_error"))
        } catch {
            return JournalStepRow(
                step: number ?? 0, title: (try? row.text("title")) ?? "(unreadable title)", kind: nil, payload: nil,
                state: (try? row.text("state")) ?? "pending", lastError: nil, damage: error.reason)
        }
    }
}
