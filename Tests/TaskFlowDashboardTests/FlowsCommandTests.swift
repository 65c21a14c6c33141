import Foundation
import GRDB
import TaskFlow
import TaskFlowStore
import TaskFlowSupport
import TaskFlowTestSupport
import Testing

/// `taskflow flows …` driven as a user would: the real binary on a store whose journal this
/// test's durable flows wrote.
@Suite("Command line: taskflow flows")
struct FlowsCommandTests {
    /// A stored revert with a secret among its fields.
    struct RemoveUpload: StoredRevert {
        static let kind = "remove-upload"
        let path: String
        let token: String
    }

    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-flows-\(UUID().uuidString)")
    private var store: String { folder.appending(path: "jobs.sqlite").path }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func taskflow(_ arguments: String...) async throws -> TaskflowProcess {
        try await TaskflowProcess.run(["flows"] + arguments + ["--store", store])
    }

    /// Journals two flows: #1 completes, #2 fails and its revert fails too (rollback incomplete).
    private func journalTwoFlows(_ jobStore: JobStore) async throws {
        let flows = DurableFlows(manager: TaskFlowManager(), store: jobStore)
        flows.register(RemoveUpload.self, retry: .never) { revert in
            if revert.path == "b" { throw Boom("disk full at postgres://ann:pa55@db/app") }
        }
        try await flows.recover()
        try await flows.execute(title: "Publish a") { flow in
            try await flow.task(title: "Upload a", revert: RemoveUpload(path: "a", token: "s3cr3t")) { _ in }
        }.value
        let failing = flows.execute(title: "Publish b") { flow in
            try await flow.task(title: "Upload b", revert: RemoveUpload(path: "b", token: "s3cr3t")) { _ in }
            throw Boom("publish refused")
        }
        await #expect(throws: RollbackIncompleteError.self) { try await failing.value }
    }

    @Test func listShowAndRetryRollbackWithSecretsRedacted() async throws {
        let jobStore = try JobStore(path: store)
        try await journalTwoFlows(jobStore)

        let list = try await taskflow("list")
        #expect(list.status == 0, "\(list.standardError)")
        let rows = list.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["ID", "STATE", "TITLE", "OWNER", "STARTED", "REASON"])
        #expect(rows.dropFirst().map { Array($0.prefix(4)) } == [["2", "rollback-incomplete", "Publish", "b"], ["1", "completed", "Publish", "a"]])
        #expect(list.standardOutput.contains("Boom(disk full at postgres://ann:‹redacted›@db/app)"), "\(list.standardOutput)")

        let show = try await taskflow("show", "2")
        #expect(show.status == 0, "\(show.standardError)")
        #expect(show.standardOutput.contains("state      rollback-incomplete"))
        let step = try #require(show.standardOutput.split(separator: "\n").first { $0.hasPrefix("  1 ") })
        #expect(step.split(separator: " ", omittingEmptySubsequences: true).prefix(5) == ["1", "failed", "remove-upload", "Upload", "b"])
        #expect(step.hasSuffix(#"{"path":"b","token":"‹redacted›"}"#), "\(show.standardOutput)")
        #expect(show.standardOutput.contains("  #1 last error: Boom(disk full at postgres://ann:‹redacted›@db/app)"))

        let json = try await taskflow("show", "2", "--json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(decoded.first?["state"] as? String == "rollback-incomplete")
        let steps = try #require(decoded.first?["steps"] as? [[String: Any]])
        #expect(steps.first?["revert"] as? [String: String] == ["path": "b", "token": "‹redacted›"])
        for output in [list, show, json, try await taskflow("list", "--json")] {
            #expect(!output.standardOutput.contains("s3cr3t") && !output.standardOutput.contains("pa55"), "\(output.standardOutput)")
        }

        let handedBack = try await taskflow("retry-rollback", "2")
        #expect(handedBack.status == 0, "\(handedBack.standardError)")
        #expect(handedBack.standardOutput
            == "flow #2 handed back to recovery: the next recover() of a program with its revert handlers rolls it back\n")
        let waiting = try await taskflow("show", "2")
        #expect(waiting.standardOutput.contains("owner      none: the next recover() of a program with its revert handlers takes it"))

        // The program, its disk fixed, starts again: its recovery rolls the flow back.
        let fixed = DurableFlows(manager: TaskFlowManager(), store: jobStore)
        let undone = Recorder<String>()
        fixed.register(RemoveUpload.self, retry: .never) { undone.record($0.path) }
        let recovered = try await fixed.recover()
        #expect(recovered.map(\.id) == [FlowID(2)] && recovered.allSatisfy(\.isComplete) && undone.all == ["b"])
        let after = try await taskflow("list").standardOutput.split(separator: "\n").dropFirst()
        #expect(after.map { Array($0.split(separator: " ").prefix(2)) } == [["2", "rolled-back"], ["1", "completed"]])
    }

    @Test func badInputIsAOneLineErrorAndStatusTwo() async throws {
        let none = try await taskflow("list")
        #expect(none.status == 2)
        #expect(none.standardError
            == "taskflow: no job store at \(store); a program's durable flows create it, or name one with --store\n")
        #expect(!FileManager.default.fileExists(atPath: store), "listing creates no store")

        try await journalTwoFlows(try JobStore(path: store))
        let missing = try await taskflow("show", "9")
        #expect(missing.status == 2 && missing.standardError == "taskflow: no durable flow #9 in \(store)\n")
        let completed = try await taskflow("retry-rollback", "1")
        #expect(completed.status == 2 && completed.standardError == "taskflow: the journal has no rollback-incomplete flow #1\n")
        let unknown = try await taskflow("retry-rollback", "7")
        #expect(unknown.status == 2 && unknown.standardError == "taskflow: the journal has no rollback-incomplete flow #7\n")
        let zero = try await taskflow("show", "0")
        #expect(zero.status == 2 && zero.standardError.hasPrefix("taskflow: the value '0' is invalid for '<id>'"))
        let limited = try await taskflow("list", "--limit", "1")
        #expect(limited.standardOutput.split(separator: "\n").count == 3 && limited.standardOutput.hasSuffix("\n… more (--limit N)\n"))
    }

    @Test func controlCharactersFromTheJournalNeverReachTheTerminalRaw() async throws {
        let flows = DurableFlows(manager: TaskFlowManager(), store: try JobStore(path: store))
        flows.register(RemoveUpload.self, retry: .never) { _ in }
        try await flows.recover()
        try await flows.execute(title: "evil\u{1B}]0;PWNED\u{7}") { flow in
            try await flow.task(title: "step\u{1B}[2J", revert: RemoveUpload(path: "\u{1B}[31m", token: "t")) { _ in }
        }.value
        for output in [try await taskflow("list"), try await taskflow("show", "1")] {
            #expect(output.status == 0 && !output.standardOutput.contains("\u{1B}") && !output.standardOutput.contains("\u{7}"))
            #expect(output.standardOutput.contains(#"evil\u{1B}]0;PWNED\u{7}"#), "\(output.standardOutput)")
        }
    }

    @Test func aStoreFromBeforeTheJournalListsNoFlowsAndStaysAsItWas() async throws {
        #expect(try await TaskflowProcess.run(["jobs", "submit", "k", "{}", "--store", store]).status == 0)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(sql: """
                DROP TABLE flow_step; DROP TABLE flow; DROP TABLE flow_ids;
                DELETE FROM grdb_migrations WHERE identifier = 'v4: flow journal'
                """)
        }
        for arguments in [["list"], ["list", "--json"], ["show", "1"]] {
            let read = try await TaskflowProcess.run(["flows"] + arguments + ["--store", store])
            #expect(read.status == (arguments[0] == "show" ? 2 : 0), "\(arguments): \(read.standardError)")
        }
        #expect(try await taskflow("list").standardOutput == "no durable flows\n")
        #expect(try await taskflow("list", "--json").standardOutput == "[]\n")
        #expect(try await queue.read { db in try db.tableExists("flow") } == false, "not upgraded by a reader")
        try queue.close()
    }
}
