import Foundation

/// Reading a job's stored row, the same for every backend: a row either makes a job whose
/// every field is in range, or is damaged, with the reason. Nothing is reinterpreted (an
/// unknown state is not "pending") and nothing traps, whatever the file holds.
package enum JobRowDecoding {
    /// The retry counts a job may hold: every backend can store them (PostgreSQL's `INTEGER`),
    /// and one more run is still a count (`retries + 1` cannot overflow).
    package static let retries: ClosedRange<Int64> = 0...Int64(Int32.max)

    /// The columns ``record(id:_:)`` reads, by name.
    package static let recordColumns = [
        "kind", "state", "retries", "submitted_at", "due_at", "lease_owner", "last_error", "recovered", "payload",
    ]

    /// The job in `row` (``recordColumns``), or a damaged record (state ``StoredJobState/damaged``)
    /// saying why not. `id` is read by the backend, typed: both schemas make it an integer key.
    package static func record(id: StoredJobID, _ row: StoredRow) -> StoredJobRecord {
        do throws(RowDamage) {
            return StoredJobRecord(
                id: id, kind: try row.text("kind"), state: try state(row), retries: try retries(row),
                submittedAt: try row.time("submitted_at"), dueAt: try row.optionalTime("due_at"),
                leaseOwner: try row.optionalText("lease_owner"), lastError: try row.optionalText("last_error"),
                isRecovery: try row.flag("recovered"), payload: try row.bytes("payload"))
        } catch {
            return .damaged(id: id, kind: try? row.text("kind"), reason: error.reason)
        }
    }

    /// A row a claim just took (``recordColumns``, `claim`, the claim's token, and `trace_context`): the job to
    /// run, or the reason it cannot, which fails it (see ``RejectedJob``). The whole row is read,
    /// not only what a run needs, so that a row listed as damaged is never run.
    package static func claimed(id: StoredJobID, _ row: StoredRow) -> ClaimedRow {
        let record = record(id: id, row)
        do throws(RowDamage) {
            if let damage = record.damage { throw RowDamage(reason: damage) }
            return .job(ClaimedJob(
                id: id, kind: record.kind, payload: record.payload, retries: record.retries,
                isRecovery: record.isRecovery, claimToken: try row.integer("claim", in: Int64.min...Int64.max, "a count"),
                // Only a link for a trace: a value that is not text is dropped, never a reason to fail the job.
                traceContext: (try? row.optionalText("trace_context")) ?? nil))
        } catch {
            return .rejected(RejectedJob(id: id, kind: eventKind(row), reason: error.reason))
        }
    }

    /// The kind as events name it: the text, or the stored value described when it is not text.
    package static func eventKind(_ row: StoredRow) -> String {
        (try? row.text("kind")) ?? row.value("kind").described
    }

    private static func state(_ row: StoredRow) throws(RowDamage) -> StoredJobState {
        let text = try row.text("state")
        guard let state = StoredJobState(rawValue: text), state != .damaged else {
            throw RowDamage(reason: "state is \(row.value("state").described), not a known state")
        }
        return state
    }

    private static func retries(_ row: StoredRow) throws(RowDamage) -> Int {
        // In range by the check, so exact on every platform Swift runs on (64-bit Int).
        Int(try row.integer("retries", in: retries, "a count"))
    }
}

/// What a claim took: a job to run, or a row that is not one.
package enum ClaimedRow: Sendable {
    case job(ClaimedJob)
    case rejected(RejectedJob)
}

/// A job a claim took that cannot run — a value of its row is of the wrong type or out of range
/// (a poison retry count of -1): the claim fails it in the same transaction (so no fence is
/// needed), with the reason, so no worker ever holds it and no restart meets it again. It stays
/// in the failed list, shown as damaged, until it is retried (which sets its count back to zero)
/// or purged.
package struct RejectedJob: Sendable, Hashable {
    package let id: StoredJobID
    /// The kind as events name it.
    package let kind: String
    /// What is wrong, naming the column and the value.
    package let reason: String

    /// The reason as the failed job records it.
    package var failure: String { "its stored row is damaged: \(reason)" }
}

extension JobRowDecoding {
    /// The state a count by state files a stored state under: a known one as itself, anything
    /// else (an unknown name, a BLOB) as ``StoredJobState/damaged``, never as another state.
    package static func countedState(_ value: StoredValue) -> StoredJobState {
        guard case .text(let text) = value, let state = StoredJobState(rawValue: text) else { return .damaged }
        return state
    }
}
