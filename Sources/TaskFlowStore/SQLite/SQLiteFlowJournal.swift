import Foundation
import GRDB
import TaskFlow

/// ``FlowJournalBackend`` on SQLite: the journal's tables beside the jobs (migration
/// "v4: flow journal"). Every method is one write transaction (`BEGIN IMMEDIATE`), so a
/// take-over's read and compare-and-set cannot interleave with another process's.
extension SQLiteBackend {
    func reserveFlowIDs(count: Int) async throws -> Int64 {
        try await writer.write { db in
            let highest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM flow") ?? 0
            let next = try Int64.fetchOne(db, sql: "SELECT next FROM flow_ids") ?? 1
            let first = max(next, highest + 1)
            try db.execute(sql: "UPDATE flow_ids SET next = ?", arguments: [first + Int64(count)])
            return first
        }
    }

    func append(_ step: JournalStep, opening flow: JournalFlowOpening?) async throws {
        try await writer.write { db in
            if let flow { try open(flow, db) }
            try db.cachedStatement(sql: "INSERT INTO flow_step (flow_id, step, title, kind, payload) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [step.flow, step.step, step.title, step.revert?.kind, step.revert?.payload])
        }
    }

    /// Writes flow `flow`'s row, unless this owner wrote it already (a group's children may each
    /// carry the opening); a row of another owner means the id is taken.
    private func open(_ flow: JournalFlowOpening, _ db: Database) throws {
        let time = flow.now.timeIntervalSince1970
        try db.cachedStatement(sql: """
            INSERT INTO flow (id, title, state, owner, started_at, heartbeat_at) VALUES (?, ?, 'running', ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """).execute(arguments: [flow.id, flow.title, flow.owner, time, time])
        guard db.changesCount == 0 else { return }
        let owner = try String.fetchOne(db.cachedStatement(sql: "SELECT owner FROM flow WHERE id = ?"), arguments: [flow.id])
        guard owner == flow.owner else { throw DurableFlowError.flowIDTaken(FlowID(Int(flow.id))) }
    }

    func setRevert(flow: Int64, step: Int, _ revert: JournalStep.Revert, heartbeat now: Date) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: "UPDATE flow_step SET kind = ?, payload = ? WHERE flow_id = ? AND step = ?")
                .execute(arguments: [revert.kind, revert.payload, flow, step])
            try db.cachedStatement(sql: "UPDATE flow SET heartbeat_at = ? WHERE id = ?")
                .execute(arguments: [now.timeIntervalSince1970, flow])
        }
    }

    func checkpoint(flow: Int64, step: Int, failure: String?) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: "UPDATE flow_step SET state = ?, last_error = ? WHERE flow_id = ? AND step = ?")
                .execute(arguments: [failure == nil ? "reverted" : "failed", failure, flow, step])
        }
    }

    func setState(
        flow id: Int64, to state: DurableFlowState, from: Set<DurableFlowState>, reason: String?, now: Date,
        keepingFinished: Int
    ) async throws -> Bool {
        try await writer.write { db in
            let states = from.map(\.rawValue).sorted()
            let time = now.timeIntervalSince1970
            try db.execute(
                sql: """
                    UPDATE flow SET state = ?, reason = ?, heartbeat_at = ?, ended_at = ?
                    WHERE id = ? AND state IN (\(Self.placeholders(states.count)))
                    """,
                arguments: [state.rawValue, reason, time, state.isFinished ? time : nil, id] + StatementArguments(states))
            guard db.changesCount == 1 else { return false }
            if state.isFinished { try pruneFinished(keeping: keepingFinished, db) }
            return true
        }
    }

    /// Deletes all but the newest `keeping` completed flows (what undo can no longer need), and
    /// all but the newest `keeping` rolled back or undone ones: counted apart, so that rollbacks
    /// never push out a completed flow that undo may still need. Steps first: the journal must
    /// not rely on foreign keys being enforced by whoever opened it.
    private func pruneFinished(keeping: Int, _ db: Database) throws {
        for states in ["'completed'", "'rolledBack', 'undone'"] {
            let pruned = "SELECT id FROM flow WHERE state IN (\(states)) ORDER BY id DESC LIMIT -1 OFFSET ?"
            try db.cachedStatement(sql: "DELETE FROM flow_step WHERE flow_id IN (\(pruned))").execute(arguments: [keeping])
            try db.cachedStatement(sql: "DELETE FROM flow WHERE id IN (\(pruned))").execute(arguments: [keeping])
        }
    }

    func heartbeat(owner: String, now: Date) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: "UPDATE flow SET heartbeat_at = ? WHERE owner = ? AND state IN ('running', 'rollingBack')")
                .execute(arguments: [now.timeIntervalSince1970, owner])
        }
    }

    func takeOver(_ selection: JournalSelection, owner: String, now: Date) async throws -> [JournalFlow] {
        logger.recovering(try await takeOverRows(selection, owner: owner, now: now), taken: selection)
    }

    private func takeOverRows(_ selection: JournalSelection, owner: String, now: Date) async throws -> [JournalFlow] {
        try await writer.write { db in
            let candidates: [JournalFlowRow]
            switch selection {
            case .interrupted(let isDead):
                candidates = try Self.flowRows(db, where: "state IN ('running', 'rollingBack')")
                    .filter { isDead($0.owner, $0.heartbeatAt) }
            case .flow(let id, let states):
                candidates = try Self.flowRows(db, where: "id = ?", [id])
                    .filter { DurableFlowState(rawValue: $0.state).map(states.contains) ?? false }
            }
            let claim = try db.cachedStatement(sql: """
                UPDATE flow SET owner = ?, state = 'rollingBack', heartbeat_at = ?, ended_at = NULL, reason = NULL
                WHERE id = ? AND owner = ? AND state = ?
                """)
            return try candidates.compactMap { row in
                try claim.execute(arguments: [owner, now.timeIntervalSince1970, row.id, row.owner, row.state])
                return db.changesCount == 1 ? try Self.flow(row.id, db) : nil
            }
        }
    }

    func flows(limit: Int) async throws -> [JournalFlowRow] {
        try await writer.read { db in
            guard try db.tableExists("flow") else { return [] }
            return try Self.flowRows(db, where: "1", suffix: "ORDER BY id DESC LIMIT ?", [limit])
        }
    }

    func flow(_ id: Int64) async throws -> JournalFlow? {
        try await writer.read { db in
            guard try db.tableExists("flow") else { return nil }
            return try Self.flow(id, db)
        }
    }

    // MARK: - Reading rows as stored

    private static let flowColumns = ["title", "state", "owner", "started_at", "heartbeat_at", "reason"]
    private static let stepColumns = ["title", "kind", "payload", "state", "last_error"]

    private static func flow(_ id: Int64, _ db: Database) throws -> JournalFlow? {
        guard let row = try flowRows(db, where: "id = ?", [id]).first else { return nil }
        let steps = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT step, \(stepColumns.joined(separator: ", ")) FROM flow_step WHERE flow_id = ? ORDER BY step"),
            arguments: [id])
        return JournalFlow(row: row, steps: steps.map(stepRow))
    }

    private static func flowRows(
        _ db: Database, where condition: String, suffix: String = "ORDER BY id", _ arguments: StatementArguments = []
    ) throws -> [JournalFlowRow] {
        let sql = "SELECT rowid AS row_id, \(flowColumns.joined(separator: ", ")) FROM flow WHERE \(condition) \(suffix)"
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            JournalRowDecoding.flow(id: row["row_id"], StoredRow(row, columns: flowColumns))
        }
    }

    private static func stepRow(_ row: Row) -> JournalStepRow {
        // A step is a WITHOUT ROWID row: its key may hold anything another program wrote.
        let stored = StoredRow(row, columns: ["step"] + stepColumns)
        let number = try? stored.integer("step", in: 0...Int64(Int32.max), "a step number")
        return JournalRowDecoding.step(stored, number: number.map(Int.init))
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
