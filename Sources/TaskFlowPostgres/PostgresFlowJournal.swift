import Foundation
import PostgresNIO
import TaskFlow
import TaskFlowStore

/// The durable flows' journal on PostgreSQL (`taskflow_flow`, `taskflow_flow_step`,
/// `taskflow_flow_ids`; schema version 4), shared by every process on every host that opens the
/// database. Each method is one transaction (``takeOver(_:owner:now:)`` of interrupted flows two,
/// with the owners judged in between); values are bound, never spliced into the SQL.
extension PostgresBackend {
    func reserveFlowIDs(count: Int) async throws -> Int64 {
        // A negative count would hand ids out again.
        let count = Int64(max(count, 0))
        return try await transaction { connection in
            // The upsert locks the one row, so concurrent reservations take turns and each sees
            // the `next` its predecessor left; the block also starts above every journaled flow.
            let rows = try await connection.query("""
                INSERT INTO taskflow_flow_ids (next)
                SELECT greatest(1, coalesce(max(id), 0) + 1) + \(count) FROM taskflow_flow
                ON CONFLICT (one) DO UPDATE SET next = greatest(taskflow_flow_ids.next, excluded.next - \(count)) + \(count)
                RETURNING next - \(count)
                """, logger: Self.logger)
            var first: Int64 = 1
            for try await start in rows.decode(Int64.self) { first = start }
            return first
        }
    }

    func append(_ step: JournalStep, opening flow: JournalFlowOpening?) async throws {
        try await transaction { connection in
            if let flow { try await Self.open(flow, connection) }
            try await connection.query("""
                INSERT INTO taskflow_flow_step (flow_id, step, title, kind, payload)
                VALUES (\(step.flow), \(Int32(clamping: step.step)), \(step.title), \(step.revert?.kind), \(step.revert?.payload))
                """, logger: Self.logger)
            return ()
        }
    }

    /// Writes `flow`'s row unless one is there; throws ``DurableFlowError/flowIDTaken(_:)`` when
    /// the row there is another owner's (this owner's: its first step's append is repeated).
    private static func open(_ flow: JournalFlowOpening, _ connection: PostgresConnection) async throws {
        try await connection.query("""
            INSERT INTO taskflow_flow (id, title, state, owner, started_at, heartbeat_at)
            VALUES (\(flow.id), \(flow.title), \(DurableFlowState.running.rawValue), \(flow.owner), \(flow.now), \(flow.now))
            ON CONFLICT (id) DO NOTHING
            """, logger: logger)
        // A new statement: it sees the row a concurrent opening committed while this one waited.
        let owners = try await connection.query("SELECT owner FROM taskflow_flow WHERE id = \(flow.id)", logger: logger)
        for try await owner in owners.decode(String.self) where owner != flow.owner {
            throw DurableFlowError.flowIDTaken(FlowID(Int(flow.id)))
        }
    }

    func setRevert(flow: Int64, step: Int, _ revert: JournalStep.Revert, heartbeat now: Date) async throws {
        try await transaction { connection in
            try await connection.query("""
                UPDATE taskflow_flow_step SET kind = \(revert.kind), payload = \(revert.payload)
                WHERE flow_id = \(flow) AND step = \(Int32(clamping: step))
                """, logger: Self.logger)
            try await connection.query("UPDATE taskflow_flow SET heartbeat_at = \(now) WHERE id = \(flow)", logger: Self.logger)
            return ()
        }
    }

    func checkpoint(flow: Int64, step: Int, failure: String?) async throws {
        let state = failure == nil ? "reverted" : "failed"
        try await transaction { connection in
            try await connection.query("""
                UPDATE taskflow_flow_step SET state = \(state), last_error = \(failure)
                WHERE flow_id = \(flow) AND step = \(Int32(clamping: step))
                """, logger: Self.logger)
            return ()
        }
    }

    func setState(
        flow id: Int64, to state: DurableFlowState, from: Set<DurableFlowState>, reason: String?, now: Date,
        keepingFinished: Int
    ) async throws -> Bool {
        let (from, ended) = (from.map(\.rawValue), state.isFinished ? now : nil)
        // Undo needs the newest completed flows' reverts: they are counted apart from the flows
        // that ended rolled back or undone, which must never push one out. A rollback left
        // incomplete waits for a person, and unfinished flows for their owner or recovery: those
        // are never pruned.
        let prunable = [[DurableFlowState.completed.rawValue], [DurableFlowState.rolledBack, .undone].map(\.rawValue)]
        let keeping = Int64(max(keepingFinished, 0))
        return try await transaction { connection in
            let moved = try await connection.query("""
                UPDATE taskflow_flow SET state = \(state.rawValue), reason = \(reason), heartbeat_at = \(now), ended_at = \(ended)
                WHERE id = \(id) AND state = ANY(\(from)::text[]) RETURNING id
                """, logger: Self.logger)
            let changed = try await !Self.ids(moved).isEmpty
            guard changed, state.isFinished else { return changed }
            // Their steps go with them (ON DELETE CASCADE). Rows another transaction holds (an
            // undo taking one, a concurrent pruning) are left for the next pruning: skipping them
            // never deletes one of the newest, and never waits on (or deadlocks with) the holder.
            for states in prunable {
                try await connection.query("""
                    DELETE FROM taskflow_flow WHERE id IN (
                        SELECT id FROM taskflow_flow WHERE state = ANY(\(states)::text[])
                        ORDER BY id DESC OFFSET \(keeping) FOR UPDATE SKIP LOCKED)
                    """, logger: Self.logger)
            }
            return true
        }
    }

    func heartbeat(owner: String, now: Date) async throws {
        let unfinished = Self.unfinished
        try await transaction { connection in
            try await connection.query("""
                UPDATE taskflow_flow SET heartbeat_at = \(now) WHERE owner = \(owner) AND state = ANY(\(unfinished)::text[])
                """, logger: Self.logger)
            return ()
        }
    }

    func takeOver(_ selection: JournalSelection, owner: String, now: Date) async throws -> [JournalFlow] {
        journalLogger.recovering(try await takeOverRows(selection, owner: owner, now: now), taken: selection)
    }

    private func takeOverRows(_ selection: JournalSelection, owner: String, now: Date) async throws -> [JournalFlow] {
        switch selection {
        case .interrupted(let isDead):
            // The flows are read first and their owners judged here, outside any transaction (the
            // judgment may ask the kernel); each is then taken only if its row is still the
            // version judged (`xmin` changes with every update: a heartbeat, another taker).
            let judged = try await transaction { connection in try await Self.interrupted(connection) }
            let dead = judged.filter { isDead($0.owner, $0.heartbeat) }
            guard !dead.isEmpty else { return [] }
            let (ids, versions) = (dead.map(\.id), dead.map(\.version))
            return try await transaction { connection in
                // A row locked meanwhile is being changed (or taken by another process): skipped,
                // never waited for, so that takers and heartbeats cannot deadlock.
                let taken = try await Self.ids(connection.query("""
                    UPDATE taskflow_flow SET owner = \(owner), state = \(Self.rollingBack), heartbeat_at = \(now)
                    WHERE id IN (
                        SELECT flow.id FROM taskflow_flow AS flow
                        JOIN unnest(\(ids)::bigint[], \(versions)::text[]) AS judged(id, version)
                            ON flow.id = judged.id AND flow.xmin::text = judged.version
                        FOR UPDATE OF flow SKIP LOCKED)
                    RETURNING id
                    """, logger: Self.logger))
                return try await Self.journalFlows(taken, connection)
            }
        case .flow(let id, let states):
            let states = states.map(\.rawValue)
            return try await transaction { connection in
                let taken = try await Self.ids(connection.query("""
                    UPDATE taskflow_flow SET owner = \(owner), state = \(Self.rollingBack), heartbeat_at = \(now)
                    WHERE id = \(id) AND state = ANY(\(states)::text[]) RETURNING id
                    """, logger: Self.logger))
                return try await Self.journalFlows(taken, connection)
            }
        }
    }

    func flows(limit: Int) async throws -> [JournalFlowRow] {
        let limit = Int64(max(limit, 0))
        return try await transaction { connection in
            try await Self.flowRows(connection.query(
                "SELECT \(unescaped: Self.flowColumns) FROM taskflow_flow ORDER BY id DESC LIMIT \(limit)", logger: Self.logger))
        }
    }

    func flow(_ id: Int64) async throws -> JournalFlow? {
        try await transaction { connection in try await Self.journalFlows([id], connection).first }
    }

    // MARK: - Helpers

    /// The states of a flow whose owner may still be at work on it.
    private static let unfinished = [DurableFlowState.running, .rollingBack].map(\.rawValue)

    /// An unfinished flow as read for judging its owner: `version` is its row's `xmin`.
    private struct Interrupted: Sendable {
        let id: Int64
        let owner: String
        let heartbeat: Date
        let version: String
    }

    private static func interrupted(_ connection: PostgresConnection) async throws -> [Interrupted] {
        let rows = try await connection.query("""
            SELECT id, owner, heartbeat_at, xmin::text FROM taskflow_flow WHERE state = ANY(\(unfinished)::text[])
            """, logger: logger)
        var flows: [Interrupted] = []
        for try await (id, owner, heartbeat, version) in rows.decode((Int64, String, Date, String).self) {
            flows.append(Interrupted(id: id, owner: owner, heartbeat: heartbeat, version: version))
        }
        return flows
    }

    private static let rollingBack = DurableFlowState.rollingBack.rawValue

    /// The ids a statement returns.
    private static func ids(_ rows: PostgresRowSequence) async throws -> [Int64] {
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids
    }

    private static let flowColumns = "id, title, state, owner, started_at, heartbeat_at, reason"

    /// Flows `ids` (those that exist) with their steps, by id, each's steps oldest first.
    private static func journalFlows(_ ids: [Int64], _ connection: PostgresConnection) async throws -> [JournalFlow] {
        guard !ids.isEmpty else { return [] }
        let rows = try await flowRows(connection.query(
            "SELECT \(unescaped: flowColumns) FROM taskflow_flow WHERE id = ANY(\(ids)::bigint[]) ORDER BY id", logger: logger))
        let steps = try await connection.query("""
            SELECT flow_id, step, title, kind, payload, state, last_error FROM taskflow_flow_step
            WHERE flow_id = ANY(\(ids)::bigint[]) ORDER BY flow_id, step
            """, logger: logger)
        var stepsByFlow: [Int64: [JournalStepRow]] = [:]
        let decoded = steps.decode((Int64, Int32, String, String?, Data?, String, String?).self)
        for try await (flow, step, title, kind, payload, state, lastError) in decoded {
            stepsByFlow[flow, default: []].append(JournalStepRow(
                step: Int(step), title: title, kind: kind, payload: payload, state: state, lastError: lastError,
                damage: damage(kind: kind, payload: payload)))
        }
        return rows.map { JournalFlow(row: $0, steps: stepsByFlow[$0.id] ?? []) }
    }

    /// Why a step's revert columns are not what the journal writes: it writes both or neither.
    /// (The columns are typed: a state is text for the reader, any JSON the handler's to judge.)
    private static func damage(kind: String?, payload: Data?) -> String? {
        switch (kind, payload) {
        case (.some, nil): "its revert has a kind but no payload"
        case (nil, .some): "its revert has a payload but no kind"
        default: nil
        }
    }

    /// Rows of ``flowColumns`` as stored: a state is text for the reader to judge; a time of
    /// 'infinity' (the columns are typed, their values still odd) decodes to a far date, never a trap.
    private static func flowRows(_ rows: PostgresRowSequence) async throws -> [JournalFlowRow] {
        var flows: [JournalFlowRow] = []
        for try await (id, title, state, owner, started, heartbeat, reason)
            in rows.decode((Int64, String, String, String, Date, Date, String?).self)
        {
            flows.append(JournalFlowRow(
                id: id, title: title, state: state, owner: owner, startedAt: started, heartbeatAt: heartbeat, reason: reason))
        }
        return flows
    }
}
