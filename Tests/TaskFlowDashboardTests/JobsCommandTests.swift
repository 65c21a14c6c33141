import DashboardKit
import Foundation
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// `taskflow jobs …` driven as a user would: the real binary on a store file of its own.
@Suite("Command line: taskflow jobs")
struct JobsCommandTests {
    /// A failing job's payload, for the failed list.
    struct Doomed: StoredJob {
        static let kind = "doomed"
        let number: Int
    }

    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-jobs-\(UUID().uuidString)")
    private var store: String { folder.appending(path: "jobs.sqlite").path }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func taskflow(_ arguments: String...) async throws -> TaskflowProcess {
        try await TaskflowProcess.run(["jobs"] + arguments + ["--store", store])
    }

    @Test func submitListShowAndCancelAJobWithItsSecretsRedacted() async throws {
        let none = try await taskflow("list")
        #expect(none.status == 2)
        #expect(none.standardError == "taskflow: no job store at \(store); submit a job first, or name one with --store\n")
        #expect(!FileManager.default.fileExists(atPath: store), "listing creates no store")

        let submitted = try await taskflow("submit", "send-email", #"{"to":"ann@example.com","apiKey":"s3cr3t","auth":{"token":"t0k"}}"#)
        #expect(submitted.status == 0 && submitted.standardOutput == "1\n", "\(submitted.standardError)")
        let mode = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the store is its owner's only")

        let list = try await taskflow("list")
        let rows = list.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["ID", "KIND", "STATE", "RETRIES", "SUBMITTED", "NOTE"])
        #expect(rows.dropFirst().map { Array($0.prefix(4)) } == [["1", "send-email", "pending", "0"]])

        let show = try await taskflow("show", "1")
        #expect(show.standardOutput.contains(#"payload    {"apiKey":"‹redacted›","auth":"‹redacted›","to":"ann@example.com"}"#))
        #expect(!show.standardOutput.contains("s3cr3t") && !show.standardOutput.contains("t0k"))

        let json = try await taskflow("list", "--json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["id"] as? Int } == [1])
        #expect((decoded.first?["payload"] as? [String: Any])?["apiKey"] as? String == "‹redacted›")

        let cancel = try await taskflow("cancel", "1")
        #expect(cancel.standardOutput == "job 1 cancelled\n")
        #expect(try await taskflow("list").standardOutput == "no jobs\n")
        let again = try await taskflow("cancel", "1")
        #expect(again.status == 2 && again.standardError == "taskflow: no job 1 in that state\n")
    }

    @Test func theFailedListShowsWhyAndRetryAndPurgeWork() async throws {
        let jobStore = try JobStore(path: store)
        let log = StreamLog(jobStore.changes)
        jobStore.register(Doomed.self, retry: .never) { job, _ in .fail(Boom("mailbox \(job.number) full")) }
        try await jobStore.submit(contentsOf: [Doomed(number: 1), Doomed(number: 2)])
        try await jobStore.start(workers: 1)
        #expect(await eventually { log.events.filter { if case .failed = $0 { true } else { false } }.count == 2 })
        await jobStore.stop()

        let failed = try await taskflow("list", "--failed")
        let lines = failed.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(failed.standardOutput)")
        #expect(lines.dropFirst().allSatisfy { $0.contains(" failed ") }, "\(failed.standardOutput)")
        #expect(lines.dropFirst().map { $0.hasSuffix("Boom(mailbox 1 full)") || $0.hasSuffix("Boom(mailbox 2 full)") } == [true, true])

        #expect(try await taskflow("retry", "1").standardOutput == "job 1 queued again\n")
        #expect(try await taskflow("purge", "--failed").standardOutput == "1 failed job purged\n")
        let left = try await taskflow("list").standardOutput.split(separator: "\n").dropFirst()
        #expect(left.map { Array($0.split(separator: " ").prefix(4)) } == [["1", "doomed", "pending", "0"]])
    }

    @Test func noOutputShowsAPasswordFromTheLastErrorOrThePayload() async throws {
        let jobStore = try JobStore(path: store)
        let log = StreamLog(jobStore.changes)
        jobStore.register(Doomed.self, retry: .never) { _, _ in .fail(Boom("connect failed: postgres://ann:s3cret@db/app refused")) }
        try await jobStore.submit(Doomed(number: 1))
        try await jobStore.start(workers: 1)
        #expect(await eventually { log.events.contains { if case .failed = $0 { true } else { false } } })
        await jobStore.stop()
        let payload = #"{"callback":"https://h/done?user=ann&password=pa55","postgres://bob:hunter2@db":"replica"}"#
        #expect(try await taskflow("submit", "sync", payload).status == 0)

        let outputs = [
            try await taskflow("list"), try await taskflow("list", "--json"), try await taskflow("list", "--failed"),
            try await taskflow("show", "1"), try await taskflow("show", "1", "--json"),
            try await taskflow("show", "2"), try await taskflow("show", "2", "--json"),
        ].map(\.standardOutput)
        for output in outputs {
            #expect(!output.contains("s3cret") && !output.contains("pa55") && !output.contains("hunter2"), "\(output)")
        }
        #expect(outputs[3].contains("last error Boom(connect failed: postgres://ann:‹redacted›@db/app refused)"), "\(outputs[3])")
        #expect(outputs[5].contains(#"{"callback":"https://h/done?user=ann&password=‹redacted›","postgres://bob:‹redacted›@db":"replica"}"#))
    }

    @Test func workersListsTheProcessesRunningWorkersOnTheStore() async throws {
        let jobStore = try JobStore(path: store)
        #expect(try await taskflow("workers").standardOutput == "no process runs workers on this store\n")
        try await jobStore.start(workers: 3)
        let table = try await taskflow("workers")
        let rows = table.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["HOST", "PID", "WORKERS", "RUNNING", "STARTED", "HEARTBEAT"])
        #expect(rows.count == 2 && rows.last?.contains("\(getpid())") == true && rows.last?.contains("3") == true)
        #expect(rows.last?.suffix(2).last == "ago", "a live process's heartbeat: \(table.standardOutput)")

        let json = try await taskflow("workers", "--json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["pid"] as? Int } == [Int(getpid())])
        #expect(decoded.first?["workers"] as? Int == 3 && decoded.first?["runningJobs"] as? Int == 0)
        #expect(decoded.first?["isSilent"] as? Bool == false && decoded.first?["leaseSeconds"] as? Double == 30)
        await jobStore.stop()
        #expect(try await taskflow("workers").standardOutput == "no process runs workers on this store\n")
    }

    @Test func badInputIsAOneLineErrorAndStatusTwo() async throws {
        let badJSON = try await taskflow("submit", "k", "{not json")
        #expect(badJSON.status == 2)
        #expect(badJSON.standardError == "taskflow: the payload is not valid JSON (see 'taskflow jobs submit --help')\n")
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        let missing = try await taskflow("show", "9")
        #expect(missing.status == 2 && missing.standardError == "taskflow: no job 9 in \(store)\n")

        let foreign = folder.appending(path: "notes.txt")
        try Data("my notes".utf8).write(to: foreign)
        let refused = try await TaskflowProcess.run(["jobs", "list", "--store", foreign.path])
        #expect(refused.status == 2)
        #expect(refused.standardError == "taskflow: \(foreign.path): not a TaskFlow job store (not an SQLite database); left untouched\n")
        #expect(try Data(contentsOf: foreign) == Data("my notes".utf8), "the file is left as it was")
    }

    @Test func wideCharactersKeepTheColumnsAligned() async throws {
        #expect(try await taskflow("submit", "メール送信", "{}").status == 0)
        #expect(try await taskflow("submit", "x", "{}").status == 0)
        let lines = try await taskflow("list").standardOutput.split(separator: "\n").map(String.init)
        // Where STATE starts, in terminal columns: the same on every line.
        let starts = lines.map { line -> Int? in
            guard let range = line.firstRange(of: "STATE") ?? line.firstRange(of: "pending") else { return nil }
            return String(line[..<range.lowerBound]).displayWidth
        }
        #expect(starts.count == 3 && Set(starts).count == 1, "\(lines)")
    }

    /// An e-mail to send: the many pending jobs of the listing tests.
    struct Email: StoredJob {
        static let kind = "send-email"
        let number: Int
    }

    /// The ids in the ID column of a `jobs list` table (the heading and the last line aside).
    private func listedIDs(_ table: String) -> [Int] {
        table.split(separator: "\n").compactMap { line in line.split(separator: " ").first.flatMap { Int($0) } }
    }

    @Test func listShowsAPageAndHowManyMoreAndFiltersAndPagesThroughThousands() async throws {
        let jobStore = try JobStore(path: store)
        let log = StreamLog(jobStore.changes)
        jobStore.register(Doomed.self, retry: .never) { job, _ in .fail(Boom("mailbox \(job.number) full")) }
        try await jobStore.submit(contentsOf: (1...3).map(Doomed.init))
        try await jobStore.start(workers: 1)
        #expect(await eventually { log.events.filter { if case .failed = $0 { true } else { false } }.count == 3 })
        await jobStore.stop()
        try await jobStore.submit(contentsOf: (4...2_500).map(Email.init))  // ids 4...2500, pending

        let page = try await taskflow("list")
        #expect(listedIDs(page.standardOutput) == Array(1...100), "the oldest 100 by default")
        #expect(page.standardOutput.hasSuffix("\n… 2,400 more (--limit N, --all)\n"), "\(page.standardOutput.suffix(80))")
        let all = try await taskflow("list", "--all")
        #expect(listedIDs(all.standardOutput) == Array(1...2_500), "pages of 1,000 follow each other")
        #expect(!all.standardOutput.contains("more"))
        let newest = try await taskflow("list", "--newest", "--limit", "1500")
        #expect(listedIDs(newest.standardOutput) == Array((1_001...2_500).reversed()))
        #expect(newest.standardOutput.hasSuffix("\n… 1,000 more (--limit N, --all)\n"))

        let failed = try await taskflow("list", "--state", "failed", "--kind", "doomed")
        #expect(listedIDs(failed.standardOutput) == [1, 2, 3] && !failed.standardOutput.contains("more"))
        #expect(try await taskflow("list", "--failed").standardOutput == failed.standardOutput, "--failed is --state failed")
        let mixed = try await taskflow("list", "--state", "pending,failed", "--limit", "4")
        #expect(listedIDs(mixed.standardOutput) == [1, 2, 3, 4] && mixed.standardOutput.hasSuffix("… 2,496 more (--limit N, --all)\n"))
        let repeated = try await taskflow("list", "--state", "running", "--state", "parked")
        #expect(repeated.standardOutput == "no jobs\n")
        let emails = try await taskflow("list", "--kind", "send-email", "--newest", "--limit", "2")
        #expect(listedIDs(emails.standardOutput) == [2_500, 2_499] && emails.standardOutput.hasSuffix("… 2,495 more (--limit N, --all)\n"))

        let json = try await taskflow("list", "--json", "--limit", "3")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["id"] as? Int } == [1, 2, 3])
        #expect(json.standardError == "… 2,497 more (--limit N, --all)\n", "the output stays one JSON array")
        let everything = try await taskflow("list", "--json", "--all")
        let elements = try #require(try JSONSerialization.jsonObject(with: Data(everything.standardOutput.utf8)) as? [[String: Any]])
        #expect(elements.compactMap { $0["id"] as? Int } == Array(1...2_500) && everything.standardError.isEmpty)
        #expect(elements.last?["payload"] as? [String: Int] == ["number": 2_500])
        #expect(try await taskflow("list", "--json", "--kind", "none").standardOutput == "[]\n")
    }

    @Test(arguments: [
        (["--limit", "0"], "the value '0' is invalid for '--limit <N>': out of range, must be from 1 to 1,000,000"),
        (["--limit=-5"], "the value '-5' is invalid for '--limit <N>': out of range, must be from 1 to 1,000,000"),
        (["--limit", "1000001"], "the value '1000001' is invalid for '--limit <N>': out of range, must be from 1 to 1,000,000"),
        (["--limit", "99999999999999999999"], "the value '99999999999999999999' is invalid for '--limit <N>': out of range, must be from 1 to 1,000,000"),
        (["--limit", "0x10"], "the value '0x10' is invalid for '--limit <N>': not a whole number like 12"),
        (["--all", "--limit", "5"], "give --limit N or --all, not both"),
        (["--state", "pending,done"], "unknown state 'done': the states are pending, running, parked, scheduled, failed"),
    ])
    func listRefusesBadBoundsAndStatesInOneLine(arguments: [String], message: String) async throws {
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        let listing = try await TaskflowProcess.run(["jobs", "list"] + arguments + ["--store", store])
        #expect(listing.status == 2 && listing.standardOutput.isEmpty)
        #expect(listing.standardError == "taskflow: \(message) (see 'taskflow jobs list --help')\n")
    }

    @Test func theTableReadsNoPayloadHoweverLargeOrBroken() async throws {
        let jobStore = try JobStore(path: store)
        // 700 KB of JSON with 50,000 strings each: redacting all ten took 35 s (debug build).
        let large = try JSONSerialization.data(withJSONObject: ["items": (0..<50_000).map { "item \($0)" }])
        for _ in 0..<10 { try await jobStore.submit(kind: "large", json: large) }
        try await jobStore.submit(kind: "broken", json: Data(repeating: 0xFF, count: 1_000_000))

        let clock = ContinuousClock()
        let start = clock.now
        let list = try await taskflow("list")
        // Under half the 35 s a pass over the payloads took, with room for a loaded machine's spawn.
        #expect(clock.now - start < .seconds(15), "a linear pass over the payloads would take many times longer")
        #expect(listedIDs(list.standardOutput) == Array(1...11))
        #expect(list.standardOutput.contains(" broken  pending "))
        let broken = try await taskflow("list", "--json", "--kind", "broken")
        #expect(broken.standardOutput.contains(#""payload":null"#), "--json reads it, and says it is not JSON")
    }

    @Test func controlCharactersFromAJobNeverReachTheTerminalRaw() async throws {
        #expect(try await taskflow("submit", "evil\u{1B}]0;PWNED\u{7}", #"{"note":"\u001b[2J"}"#).status == 0)
        for output in [try await taskflow("list"), try await taskflow("show", "1")] {
            #expect(!output.standardOutput.contains("\u{1B}") && !output.standardOutput.contains("\u{7}"), "\(output.standardOutput)")
            #expect(output.standardOutput.contains(#"evil\u{1B}]0;PWNED\u{7}"#))
        }
    }
}

/// A `--store` that is not a store file is one line and status 2, read without blocking: a
/// directory, a device that never ends, a FIFO with no writer.
@Suite("Command line: --store paths that are not store files")
struct StorePathTests {
    @Test(arguments: [
        ("/", "/: cannot open the job store: a directory, not a job store file"),
        ("/dev/zero", "/dev/zero: cannot open the job store: not a regular file"),
        ("", "--store needs a path"),
    ])
    func aPathThatIsNoStoreFileIsRefused(path: String, message: String) async throws {
        let listing = try await TaskflowProcess.run(["jobs", "list", "--store", path])
        #expect(listing.status == 2 && listing.standardError == "taskflow: \(message)\n")
        let dashboard = try await TaskflowProcess.run(["demo", "built-in", "--headless", "--store", path])
        #expect(dashboard.status == 2 && dashboard.standardError.hasPrefix("taskflow: "), "\(dashboard.standardError)")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() async throws {
        let fifo = FileManager.default.temporaryDirectory.appending(path: "taskflow-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let listing = try await TaskflowProcess.run(["jobs", "list", "--store", fifo])
        #expect(listing.status == 2 && listing.standardError == "taskflow: \(fifo): cannot open the job store: not a regular file\n")
    }
}
