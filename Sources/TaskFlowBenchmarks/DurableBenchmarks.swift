import Foundation
import GRDB
import TaskFlow
import TaskFlowStore

/// Durable flows' figures on an SQLite file (WAL, `synchronous = NORMAL`, as the store opens it),
/// beside raw GRDB and in-memory steps measured in the same run:
///
/// | figure                        | durable flows                                               | baseline                                                              |
/// |-------------------------------|-------------------------------------------------------------|-----------------------------------------------------------------------|
/// | journaled steps per second    | one write flow of 5,000 `task(title:revert:apply:)` steps, no-op apply | raw GRDB: the same flow row and step rows (same tables, JSON payloads), one awaited `pool.write` per row |
/// | a durable step's cost         | the same flow, per step                                     | the same flow of in-memory steps (`task(title:apply:revert:)`)        |
/// | recovery of 1,000 flows       | `recover()` of 1,000 flows of 3 steps each left running by a dead process, no-op handlers | raw GRDB: the same writes (take-over; per flow: rolling back, a checkpoint per step, the end) |
///
/// Each step's journal row is one write transaction: that is the write-ahead promise (the revert
/// is on disk before the step runs), so steps cannot be batched the way submits are.
@concurrent
func runDurableBenchmarks() async {
    var table = ResultTable(title: "Durable flows (\(buildConfiguration), SQLite file in WAL mode; baselines in the same run)")
    do {
        let scratch = try StoreScratch()
        defer { scratch.remove() }
        try await benchmarkJournaledSteps(&table, scratch)
        try await benchmarkRecovery(&table, scratch)
    } catch {
        print("durable benchmarks stopped early: \(error)")
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
}

/// The stored revert every benchmark step journals.
private struct BenchRevert: StoredRevert {
    static let kind = "bench-revert"
    let n: Int
}

private enum DurableWorkload {
    static let steps = 5_000
    static let runs = 5
    static let interruptedFlows = 1_000
    static let stepsPerInterruptedFlow = 3
}

private func durableProgress(_ what: String) { print("· durable: \(what)…") }

// MARK: - Journaled steps

private func benchmarkJournaledSteps(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    let steps = DurableWorkload.steps
    durableProgress("a write flow of \(steps) journaled steps, raw GRDB, in-memory steps")
    // Round after round, each side once: a machine busy for a moment slows all three alike.
    var samples: (durable: [Duration], raw: [Duration], inMemory: [Duration]) = ([], [], [])
    for _ in 0..<DurableWorkload.runs {
        samples.durable.append(try await durableFlow(steps, path: scratch.newPath()))
        samples.raw.append(try await RawJournal(path: scratch.newPath()).journal(steps))
        samples.inMemory.append(try await inMemoryFlow(steps))
    }
    let (durable, raw, inMemory) = (Samples(samples.durable).median, Samples(samples.raw).median, Samples(samples.inMemory).median)
    let (durableRate, rawRate) = (Double(steps) / (durable / 1e9), Double(steps) / (raw / 1e9))
    let ratio = durableRate / rawRate
    table.add(
        "journaled steps, one flow of \(steps)", taskFlow: formatRate(durableRate, unit: "steps"),
        baseline: formatRate(rawRate, unit: "rows") + " (raw GRDB)", ratio: formatRatio(ratio),
        target: "≥ 5,000/s and ≥ 0.5× raw", verdict: durableRate >= 5_000 && ratio >= 0.5 ? .met : .missed)
    let (perDurable, perInMemory) = (durable / Double(steps), inMemory / Double(steps))
    table.add(
        "durable step vs in-memory step", taskFlow: formatNanoseconds(perDurable),
        baseline: formatNanoseconds(perInMemory) + " (in memory)", ratio: formatRatio(perDurable / perInMemory),
        target: "info: +\(formatNanoseconds(perDurable - perInMemory)) a step", verdict: .info)
    table.add(
        "raw journal row vs in-memory step", taskFlow: formatNanoseconds(raw / Double(steps)),
        baseline: formatNanoseconds(perInMemory) + " (in memory)", ratio: formatRatio(raw / inMemory),
        target: "info: the transaction's share", verdict: .info)
}

/// How long one durable write flow of `steps` no-op steps takes, each journaling a revert.
private func durableFlow(_ steps: Int, path: String) async throws -> Duration {
    let store = try JobStore(path: path)
    let flows = DurableFlows(manager: TaskFlowManager(), store: store)
    flows.register(BenchRevert.self) { _ in }
    try await flows.recover()
    return try await measure {
        try await flows.execute(title: "bench") { flow in
            for n in 0..<steps {
                try await flow.task(title: "step", revert: BenchRevert(n: n)) { _ in }
            }
        }.value
    }
}

/// The same flow with in-memory steps and reverts.
private func inMemoryFlow(_ steps: Int) async throws -> Duration {
    let manager = TaskFlowManager()
    return try await measure {
        try await manager.execute(title: "bench") { flow in
            for _ in 0..<steps {
                try await flow.task(title: "step", apply: { _ in }, revert: { _, _ in })
            }
        }.value
    }
}

/// The baseline: the journal's rows written by hand, one transaction per row, on a pool opened
/// as the store opens its file.
private struct RawJournal: Sendable {
    let pool: DatabasePool

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        pool = try DatabasePool(path: path, configuration: configuration)
        // The journal's tables (migration "v4: flow journal"), so that each row costs the same.
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE flow (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, state TEXT NOT NULL, owner TEXT NOT NULL,
                    started_at REAL NOT NULL, heartbeat_at REAL NOT NULL, ended_at REAL, reason TEXT);
                CREATE INDEX flow_by_state ON flow(state);
                CREATE TABLE flow_step (
                    flow_id INTEGER NOT NULL REFERENCES flow(id) ON DELETE CASCADE, step INTEGER NOT NULL,
                    title TEXT NOT NULL, kind TEXT, payload BLOB, state TEXT NOT NULL DEFAULT 'pending',
                    last_error TEXT, PRIMARY KEY (flow_id, step)) WITHOUT ROWID;
                """)
        }
    }

    /// Writes a flow's row, `steps` step rows with their JSON revert, each in a transaction of
    /// its own, and the flow's completion; how long that took.
    func journal(_ steps: Int) async throws -> Duration {
        try await measure {
            let now = Date().timeIntervalSince1970
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO flow (id, title, state, owner, started_at, heartbeat_at) VALUES (1, 'bench', 'running', 'raw', ?, ?)",
                    arguments: [now, now])
            }
            for n in 0..<steps {
                let payload = try JSONEncoder().encode(BenchRevert(n: n))
                try await pool.write { db in
                    try db.cachedStatement(sql: "INSERT INTO flow_step (flow_id, step, title, kind, payload) VALUES (1, ?, 'step', ?, ?)")
                        .execute(arguments: [n + 1, BenchRevert.kind, payload])
                }
            }
            try await pool.write { db in
                try db.execute(sql: "UPDATE flow SET state = 'completed', ended_at = ? WHERE id = 1", arguments: [now])
            }
        }
    }
}

// MARK: - Recovery

private func benchmarkRecovery(_ table: inout ResultTable, _ scratch: StoreScratch) async throws {
    let (count, steps) = (DurableWorkload.interruptedFlows, DurableWorkload.stepsPerInterruptedFlow)
    durableProgress("recover() of \(count) interrupted flows of \(steps) steps, and raw GRDB's same writes")
    var samples: (durable: [Duration], raw: [Duration]) = ([], [])
    for _ in 0..<DurableWorkload.runs {
        samples.durable.append(try await recovery(count, steps: steps, at: scratch.newPath()))
        let path = scratch.newPath()
        try await leaveInterruptedFlows(count, steps: steps, at: path)
        samples.raw.append(try await rawRecovery(path))
    }
    let (time, raw) = (Samples(samples.durable).median, Samples(samples.raw).median)
    table.add(
        "recover() \(count) flows of \(steps) steps, no-op handlers", taskFlow: formatNanoseconds(time),
        baseline: formatNanoseconds(raw) + " (raw GRDB, same writes)", ratio: formatRatio(time / raw),
        target: "info: \(formatNanoseconds(time / Double(count))) a flow", verdict: .info)
}

/// How long `recover()` takes over `count` interrupted flows of `steps` steps left at `path`.
private func recovery(_ count: Int, steps: Int, at path: String) async throws -> Duration {
    try await leaveInterruptedFlows(count, steps: steps, at: path)
    let flows = DurableFlows(manager: TaskFlowManager(), store: try JobStore(path: path))
    flows.register(BenchRevert.self) { _ in }
    var recovered: [RecoveredFlow] = []
    let time = try await measure { recovered = try await flows.recover() }
    guard recovered.count == count, recovered.allSatisfy(\.isComplete) else {
        throw BenchmarkFailure(description: "recover() rolled back \(recovered.filter(\.isComplete).count) of \(count) flows")
    }
    return time
}

/// The baseline: the writes `recover()` makes, by hand. One transaction takes the flows over
/// (reading their steps); then, flow after flow, one marks it rolling back, one per step
/// checkpoints it (last first), and one records its end and prunes finished flows beyond 100.
private func rawRecovery(_ path: String) async throws -> Duration {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    let pool = try DatabasePool(path: path, configuration: configuration)
    defer { try? pool.close() }
    return try await measure {
        let flows = try await pool.write { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM flow WHERE state = 'running' ORDER BY id").map { id in
                try db.execute(sql: "UPDATE flow SET owner = 'raw', state = 'rollingBack' WHERE id = ? AND state = 'running'", arguments: [id])
                return (id, try Int.fetchAll(db, sql: "SELECT step FROM flow_step WHERE flow_id = ? ORDER BY step", arguments: [id]))
            }
        }
        let pruned = "SELECT id FROM flow WHERE state IN ('completed', 'rolledBack', 'undone') ORDER BY id DESC LIMIT -1 OFFSET 100"
        for (id, steps) in flows {
            try await pool.write { db in
                try db.execute(sql: "UPDATE flow SET state = 'rollingBack', heartbeat_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
            }
            for step in steps.reversed() {
                try await pool.write { db in
                    try db.cachedStatement(sql: "UPDATE flow_step SET state = 'reverted' WHERE flow_id = ? AND step = ?")
                        .execute(arguments: [id, step])
                }
            }
            try await pool.write { db in
                try db.execute(sql: "UPDATE flow SET state = 'rolledBack', ended_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
                try db.cachedStatement(sql: "DELETE FROM flow_step WHERE flow_id IN (\(pruned))").execute()
                try db.cachedStatement(sql: "DELETE FROM flow WHERE id IN (\(pruned))").execute()
            }
        }
    }
}

/// Writes into a new journal at `path` `count` flows of `steps` pending steps each, running and
/// owned by a process of this host that no longer runs: what a crash leaves.
private func leaveInterruptedFlows(_ count: Int, steps: Int, at path: String) async throws {
    let owner = try await deadOwner(path)
    let queue = try DatabaseQueue(path: path)
    let now = Date().timeIntervalSince1970
    try await queue.write { db in
        let flow = try db.makeStatement(
            sql: "INSERT INTO flow (id, title, state, owner, started_at, heartbeat_at) VALUES (?, 'interrupted', 'running', ?, ?, ?)")
        let step = try db.makeStatement(
            sql: "INSERT INTO flow_step (flow_id, step, title, kind, payload) VALUES (?, ?, 'step', ?, ?)")
        for id in 1...count {
            // Above the flow that learnt the owner (id 1).
            try flow.execute(arguments: [id + 1, owner, now, now])
            for number in 1...steps {
                try step.execute(arguments: [id + 1, number, BenchRevert.kind, try JSONEncoder().encode(BenchRevert(n: number))])
            }
        }
    }
    try queue.close()
}

/// This process's owner as the journal at `path` writes it (a flow run there records it), with
/// the pid of a process that ran and exited: proved dead as after a crash.
private func deadOwner(_ path: String) async throws -> String {
    do {
        let flows = DurableFlows(manager: TaskFlowManager(), store: try JobStore(path: path))
        flows.register(BenchRevert.self) { _ in }
        try await flows.recover()
        try await flows.execute(title: "owner") { flow in try await flow.task(title: "step", revert: BenchRevert(n: 0)) { _ in } }.value
    }
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    let owner = try await queue.read { db in try String.fetchOne(db, sql: "SELECT owner FROM flow") } ?? ""
    var parts = owner.split(separator: " ").map(String.init)
    guard parts.count == 4 else { throw BenchmarkFailure(description: "unexpected journal owner \"\(owner)\"") }
    let exited = Process()
    exited.executableURL = URL(fileURLWithPath: "/bin/true")
    try exited.run()
    exited.waitUntilExit()
    parts[2] = String(exited.processIdentifier)
    return parts.joined(separator: " ")
}
