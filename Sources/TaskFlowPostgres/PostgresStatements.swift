import Foundation
import PostgresNIO
import TaskFlowStore

/// The statements of the hot path — promotion, lease recovery, claims, outcomes, wake-ups — in
/// one place: ``PostgresBackend`` runs them, and the benchmark's raw postgres-nio baseline runs
/// the very same ones (hence `package`), so the two differ only by what the store adds.
package enum PostgresStatements {
    /// The channel `NOTIFY` wakes idle workers on, in every process.
    package static let channel = "taskflow_jobs"

    /// Wakes every listener (delivered when the transaction commits).
    package static var notify: PostgresQuery { "SELECT pg_notify(\(channel), '')" }

    /// Inserts pending jobs, one per kind and payload, in input order, each with its trace
    /// context (nil: none; all nil when `traceContexts` is empty); returns each `id`. One
    /// statement, so that a submit outside a transaction is one round trip, committed when it
    /// returns. The wake-up is not in it: ``WakeUpSender`` sends it after the commit.
    ///
    /// One job is a plain `VALUES` row: pgbench ran it 1.2× (one client) to 1.4× (eight) faster
    /// than the `unnest` that many jobs need (arrays built, a sort by ordinality).
    package static func insert(kinds: [String], payloads: [Data], traceContexts: [String?] = [], now: Date) -> PostgresQuery {
        if kinds.count == 1, payloads.count == 1 {
            // No trace context and an empty one are both NULL, as in the `unnest` form.
            let trace = traceContexts.first.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
            return """
                INSERT INTO taskflow_job (kind, payload, state, submitted_at, trace_context)
                VALUES (\(kinds[0]), \(ByteBuffer(bytes: payloads[0])), 'pending', \(now), \(trace))
                RETURNING id
                """
        }
        let payloads = payloads.map { ByteBuffer(bytes: $0) }
        // An empty text stands for NULL: the array is sent as text[] without NULL elements.
        let traces = traceContexts.isEmpty ? Array(repeating: "", count: kinds.count) : traceContexts.map { $0 ?? "" }
        // Identities are handed out in the order of `number`; RETURNING promises no order, the
        // outer query does.
        return """
            WITH inserted AS (
                INSERT INTO taskflow_job (kind, payload, state, submitted_at, trace_context)
                SELECT kind, payload, 'pending', \(now), NULLIF(trace, '')
                FROM unnest(\(kinds)::text[], \(payloads)::bytea[], \(traces)::text[])
                    WITH ORDINALITY AS new(kind, payload, trace, number)
                ORDER BY number RETURNING id
            )
            SELECT id FROM inserted ORDER BY id
            """
    }

    /// Scheduled and parked jobs whose time came become pending.
    package static func promoteDue(now: Date) -> PostgresQuery {
        """
        UPDATE taskflow_job SET state = 'pending', due_at = NULL WHERE id IN (
            SELECT id FROM taskflow_job WHERE state IN ('scheduled', 'parked') AND due_at <= \(now)
            FOR UPDATE SKIP LOCKED)
        """
    }

    /// Running jobs whose lease ran out become pending recoveries; returns `id, kind` of each.
    package static func recoverExpired(now: Date) -> PostgresQuery {
        """
        UPDATE taskflow_job SET state = 'pending', due_at = NULL, lease_owner = NULL, recovered = true WHERE id IN (
            SELECT id FROM taskflow_job WHERE state = 'running' AND due_at < \(now) FOR UPDATE SKIP LOCKED)
        RETURNING id, kind
        """
    }

    /// The columns a listing reads, for ``TaskFlowStore/JobRowDecoding``; without the payload, an
    /// empty one in its place (named as the column, so the same decoding reads both).
    package static func recordColumns(payload: Bool = true) -> String {
        "id, kind, state, retries, submitted_at, due_at, lease_owner, last_error, recovered, "
            + (payload ? "payload" : "''::bytea AS payload")
    }

    /// Claims the oldest `limit` pending jobs of `kinds` that no other transaction holds, for
    /// `owner` until `leaseUntil`; returns ``recordColumns(payload:)`` and `claim` (the whole row, so that
    /// a damaged one is never run).
    package static func claimPending(kinds: [String], limit: Int, owner: String, leaseUntil: Date) -> PostgresQuery {
        """
        WITH picked AS (
            SELECT id FROM taskflow_job WHERE state = 'pending' AND kind = ANY(\(kinds))
            ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
        UPDATE taskflow_job AS job SET state = 'running', lease_owner = \(owner), due_at = \(leaseUntil),
            claim = job.claim % 9223372036854775807 + 1
        FROM picked WHERE job.id = picked.id
        RETURNING job.id, job.kind, job.state, job.retries, job.submitted_at, job.due_at, job.lease_owner, job.last_error,
            job.recovered, job.payload, job.claim, job.trace_context
        """
    }

    /// Fails a claimed row that is not a job, in the claim's transaction: only the state, the
    /// reason and the lease change; the damaged values stay as they were.
    package static func reject(_ job: RejectedJob, now: Date) -> PostgresQuery {
        """
        UPDATE taskflow_job SET state = 'failed', last_error = \(job.failure), failed_at = \(now), due_at = NULL,
            lease_owner = NULL
        WHERE id = \(job.id.rawValue)
        """
    }

    /// One outcome as one statement; `WHERE … claim = …` drops it if the lease was lost.
    package static func outcome(_ resolution: Resolution, now: Date) -> PostgresQuery {
        let job = resolution.job
        let (id, token) = (job.id.rawValue, job.claimToken)
        switch resolution.action {
        case .delete:
            return "DELETE FROM taskflow_job WHERE id = \(id) AND claim = \(token) AND state = 'running' RETURNING id"
        case .park(let until):
            return """
                UPDATE taskflow_job SET state = 'parked', due_at = \(until), lease_owner = NULL, recovered = false
                WHERE id = \(id) AND claim = \(token) AND state = 'running' RETURNING id
                """
        case .schedule(let retries, let at, let reason):
            // A retry due now goes straight back to pending: no promotion needed to run it.
            let isDue = at <= now
            let state = isDue ? "pending" : "scheduled"
            let due: Date? = isDue ? nil : at
            return """
                UPDATE taskflow_job SET state = \(state), retries = \(Int32(clamping: retries)), due_at = \(due),
                    last_error = \(reason), lease_owner = NULL, recovered = false
                WHERE id = \(id) AND claim = \(token) AND state = 'running' RETURNING id
                """
        case .fail(let retries, let reason):
            return """
                UPDATE taskflow_job SET state = 'failed', retries = \(Int32(clamping: retries)), last_error = \(reason),
                    failed_at = \(now), due_at = NULL, lease_owner = NULL, recovered = false
                WHERE id = \(id) AND claim = \(token) AND state = 'running' RETURNING id
                """
        }
    }
}
