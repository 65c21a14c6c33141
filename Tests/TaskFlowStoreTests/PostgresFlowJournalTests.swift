import Foundation
import PostgresNIO
import Testing
import TaskFlow
@testable import TaskFlowPostgres
import TaskFlowStore

/// The durable flows' journal on PostgreSQL, through its backend: what many processes on many
/// hosts sharing it rely on (ids never handed out twice, a flow taken over once) and what a
/// tampered row reads back as.
@Suite(
    "PostgreSQL: the flow journal",
    .enabled(if: PostgresTestServer.url != nil,
             "TASKFLOW_TEST_POSTGRES_URL is not set: eval \"$(Scripts/postgres-server.sh start /tmp/taskflow-pg)\" runs these"))
struct PostgresFlowJournalTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func reservedBlocksNeverOverlapAndStartAboveEveryJournaledFlow() async throws {
        let journal = try await Journal.make()
        #expect(try await journal.backend.reserveFlowIDs(count: 5) == 1, "an empty journal starts at 1")
        try await journal.open(500, owner: "a")
        // Two processes (two pools) reserving at once.
        let other = try journal.anotherProcess()
        let starts = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<20 {
                let backend = index.isMultiple(of: 2) ? journal.backend : other
                group.addTask { try await backend.reserveFlowIDs(count: 10) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(starts.sorted() == Array(stride(from: 501, to: 701, by: 10)), "consecutive blocks, above flow 500")
    }

    @Test func anOpeningIsTheOwnersToRepeatAndNobodyElses() async throws {
        let journal = try await Journal.make()
        let revert = JournalStep.Revert(kind: "delete-file", payload: Data(#"{"path":"a"}"#.utf8))
        try await journal.open(7, owner: "a", step: 1, revert: revert)
        try await journal.open(7, owner: "a", step: 2)
        let error = await #expect(throws: DurableFlowError.self) { try await journal.open(7, owner: "b", step: 3) }
        #expect(error == .flowIDTaken(FlowID(7)))

        let flow = try #require(try await journal.backend.flow(7))
        #expect(flow.row.owner == "a" && flow.row.state == "running" && flow.row.startedAt == Self.start)
        #expect(flow.steps.map(\.step) == [1, 2], "the refused step was not written")
        #expect(flow.steps[0].kind == "delete-file" && flow.steps[0].payload == revert.payload)
        #expect(flow.steps[1].kind == nil && flow.steps[1].payload == nil && flow.steps[1].state == "pending")
    }

    @Test func aRevertMadeFromTheResultAndItsCheckpoints() async throws {
        let journal = try await Journal.make()
        try await journal.open(1, owner: "a", step: 1)
        try await journal.backend.append(JournalStep(flow: 1, step: 2, title: "step 2", revert: nil), opening: nil)
        let later = Self.start + 5
        try await journal.backend.setRevert(flow: 1, step: 2, .init(kind: "k", payload: Data([1, 2])), heartbeat: later)
        try await journal.backend.checkpoint(flow: 1, step: 1, failure: "disk full")
        try await journal.backend.checkpoint(flow: 1, step: 2, failure: "disk full")
        try await journal.backend.checkpoint(flow: 1, step: 2, failure: nil)

        let flow = try #require(try await journal.backend.flow(1))
        #expect(flow.row.heartbeatAt == later)
        #expect(flow.steps.map(\.state) == ["failed", "reverted"])
        #expect(flow.steps.map(\.lastError) == ["disk full", nil])
        #expect(flow.steps[1].kind == "k" && flow.steps[1].payload == Data([1, 2]))
        #expect(try await journal.backend.flow(2) == nil)
    }

    @Test func aStateMovesOnlyFromTheGivenStatesAndOnlyFinishedFlowsArePruned() async throws {
        let journal = try await Journal.make()
        for id: Int64 in 1...6 { try await journal.open(id, owner: "a") }
        func move(_ id: Int64, to state: DurableFlowState, from: Set<DurableFlowState> = [.running], reason: String? = nil)
            async throws -> Bool
        {
            try await journal.backend.setState(
                flow: id, to: state, from: from, reason: reason, now: Self.start + 1, keepingFinished: 2)
        }
        #expect(try await move(1, to: .completed))
        #expect(try await !move(1, to: .rolledBack), "completed is not running")
        #expect(try await move(2, to: .rollingBack))
        #expect(try await move(2, to: .rollbackIncomplete, from: [.rollingBack], reason: "disk full"))
        #expect(try await move(3, to: .completed))
        #expect(try await move(4, to: .rolledBack))
        #expect(try await move(5, to: .completed))
        #expect(try await move(5, to: .undone, from: [.completed]))

        let flows = try await journal.backend.flows(limit: 10)
        // Completed flows are counted apart: 5's completion pushed 1 out (1, 3, 5 completed),
        // then 5 was undone; the newest 2 rolled back or undone, the incomplete and the running one stay.
        #expect(flows.map(\.id) == [6, 5, 4, 3, 2])
        #expect(flows.map(\.state) == ["running", "undone", "rolledBack", "completed", "rollbackIncomplete"])
        #expect(flows.last?.reason == "disk full" && flows.first?.reason == nil)
        #expect(try await journal.backend.flows(limit: 2).map(\.id) == [6, 5])
        #expect(try await journal.count("taskflow_flow_step") == 5, "the pruned flow's steps went with it")
    }

    @Test func aHeartbeatRenewsTheOwnersUnfinishedFlowsOnly() async throws {
        let journal = try await Journal.make()
        for id: Int64 in 1...3 { try await journal.open(id, owner: id == 3 ? "b" : "a") }
        _ = try await journal.backend.setState(
            flow: 2, to: .completed, from: [.running], reason: nil, now: Self.start, keepingFinished: 10)
        try await journal.backend.heartbeat(owner: "a", now: Self.start + 9)
        let beats = try await journal.backend.flows(limit: 10).map(\.heartbeatAt)
        #expect(beats == [Self.start, Self.start, Self.start + 9])
    }

    @Test func interruptedFlowsOfDeadOwnersAreTakenOnceWhoeverAsks() async throws {
        let journal = try await Journal.make()
        // Dead owners' unfinished flows 1...20 (the even ones rolling back), a live owner's, a
        // dead owner's completed one.
        for id in 1...20 {
            try await journal.open(Int64(id), owner: "dead \(id % 3)", step: 1)
            try await journal.backend.append(JournalStep(flow: Int64(id), step: 2, title: "step 2", revert: nil), opening: nil)
            if id.isMultiple(of: 2) {
                _ = try await journal.backend.setState(
                    flow: Int64(id), to: .rollingBack, from: [.running], reason: nil, now: Self.start, keepingFinished: 10)
            }
        }
        try await journal.open(21, owner: "alive")
        try await journal.open(22, owner: "dead 0")
        _ = try await journal.backend.setState(
            flow: 22, to: .completed, from: [.running], reason: nil, now: Self.start, keepingFinished: 10)

        let other = try journal.anotherProcess()
        let taken = try await withThrowingTaskGroup(of: [JournalFlow].self) { group in
            for taker in 0..<4 {
                let backend = taker.isMultiple(of: 2) ? journal.backend : other
                group.addTask {
                    try await backend.takeOver(
                        .interrupted(isDead: { owner, _ in owner.hasPrefix("dead") }), owner: "taker \(taker)", now: Self.start + 1)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(taken.flatMap { $0.map(\.row.id) }.sorted() == Array(1...20), "each once, none of the others")
        for flows in taken {
            #expect(flows.map(\.row.id) == flows.map(\.row.id).sorted())
            let takers = Set(flows.map(\.row.owner))
            #expect(takers.count <= 1 && takers.allSatisfy { $0.hasPrefix("taker") })
            #expect(flows.allSatisfy { $0.row.state == "rollingBack" && $0.steps.map(\.step) == [1, 2] })
        }
        let again = try await journal.backend.takeOver(
            .interrupted(isDead: { owner, _ in !owner.hasPrefix("taker") }), owner: "late", now: Self.start)
        #expect(again.map(\.row.id) == [21], "the live owner's flow alone was left, had it died since")
    }

    @Test func aFlowIsTakenForUndoOnlyInTheStatesAsked() async throws {
        let journal = try await Journal.make()
        try await journal.open(1, owner: "a", step: 1)
        _ = try await journal.backend.setState(
            flow: 1, to: .completed, from: [.running], reason: nil, now: Self.start, keepingFinished: 10)
        let undo = JournalSelection.flow(1, states: [.completed])
        #expect(try await journal.backend.takeOver(.flow(1, states: [.rollbackIncomplete]), owner: "b", now: Self.start).isEmpty)
        let taken = try await journal.backend.takeOver(undo, owner: "b", now: Self.start + 2)
        #expect(taken.map(\.row.owner) == ["b"] && taken.map(\.row.state) == ["rollingBack"])
        #expect(taken.map(\.row.heartbeatAt) == [Self.start + 2] && taken.first?.steps.count == 1)
        #expect(try await journal.backend.takeOver(undo, owner: "c", now: Self.start).isEmpty, "no longer completed")
    }

    @Test func tamperedRowsReadBackAsStoredWithoutATrap() async throws {
        let journal = try await Journal.make()
        try await journal.open(1, owner: "a", step: 1)
        try await journal.open(2, owner: "gone", step: 1)
        let revert = JournalStep.Revert(kind: "k", payload: Data("{}".utf8))
        for step in 2...3 {
            try await journal.backend.append(JournalStep(flow: 2, step: step, title: "step \(step)", revert: revert), opening: nil)
        }
        try await journal.tamper("UPDATE taskflow_flow_step SET payload = NULL WHERE step = 2")
        try await journal.tamper("UPDATE taskflow_flow_step SET kind = NULL WHERE step = 3")
        try await journal.tamper("""
            UPDATE taskflow_flow SET state = 'exploded', started_at = '-infinity', heartbeat_at = 'infinity' WHERE id = 1
            """)
        try await journal.tamper("UPDATE taskflow_flow_step SET state = 'sideways' WHERE flow_id = 1")
        try await journal.tamper("UPDATE taskflow_flow SET heartbeat_at = 'infinity' WHERE id = 2")

        let flow = try #require(try await journal.backend.flow(1))
        #expect(flow.row.state == "exploded" && flow.steps.map(\.state) == ["sideways"], "unknown states are the reader's to judge")
        #expect(flow.row.startedAt < Self.start && flow.row.heartbeatAt > Self.start)
        #expect(try await journal.backend.flows(limit: 5).map(\.state) == ["running", "exploded"])
        // A heartbeat that is no time at all is judged (here: dead) and the flow taken, not trapped on.
        let taken = try await journal.backend.takeOver(
            .interrupted(isDead: { owner, beat in owner == "gone" && beat > Self.start }), owner: "b", now: Self.start)
        #expect(taken.map(\.row.id) == [2])
        #expect(taken.first?.steps.map(\.damage) == [
            nil, "its revert has a kind but no payload", "its revert has a payload but no kind",
        ], "no revert yet is sound; half a revert cannot run")
    }
}

/// A fresh database with the store's tables, and the journal's backend on it.
private struct Journal {
    let backend: PostgresBackend
    let database: String

    static func make() async throws -> Journal {
        let database = try await PostgresTestServer.createDatabase()
        _ = try await JobStore.postgres(url: database, options: JobStoreOptions().patient)  // creates the tables
        return Journal(backend: try backend(database), database: database)
    }

    /// Another pool on the same database, as another process has.
    func anotherProcess() throws -> PostgresBackend { try Self.backend(database) }

    private static func backend(_ database: String) throws -> PostgresBackend {
        PostgresBackend(
            configuration: try PostgresURL(database).clientConfiguration(maxConnections: 4), server: database,
            deadline: .seconds(60))
    }

    /// Journals step `step` of flow `id`, opening it.
    func open(_ id: Int64, owner: String, step: Int = 1, revert: JournalStep.Revert? = nil) async throws {
        let opening = JournalFlowOpening(id: id, title: "flow \(id)", owner: owner, now: Date(timeIntervalSince1970: 1_700_000_000))
        try await backend.append(JournalStep(flow: id, step: step, title: "step \(step)", revert: revert), opening: opening)
    }

    /// Runs `sql` as another program could.
    func tamper(_ sql: String) async throws {
        try await PostgresTestServer.execute(on: database, PostgresQuery(unsafeSQL: sql))
    }

    /// How many rows `table` has.
    func count(_ table: String) async throws -> Int64 {
        try await backend.transaction { connection in
            var count: Int64 = 0
            let rows = try await connection.query("SELECT count(*) FROM \(unescaped: table)", logger: PostgresBackend.logger)
            for try await found in rows.decode(Int64.self) { count = found }
            return count
        }
    }
}
