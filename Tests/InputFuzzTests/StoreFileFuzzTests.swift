import Foundation
import GRDB
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// Seeded mutations of a store file's values — every type SQLite holds, in every column of
/// both tables — read the ways the command line and the dashboard read a store, then run by
/// workers: every case must end cleanly (a trap ends the whole test process), each damaged row
/// listed with a one-line reason. A failure names the seed and the case, so it replays.
@Suite struct StoreFileFuzzTests {
    /// A job the workers run; any answer will do, what matters is that nothing traps.
    struct Probe: StoredJob {
        static let kind = "probe"
        let number: Int
    }

    private static let jobColumns = [
        "id", "kind", "payload", "state", "retries", "due_at", "claim", "lease_owner", "recovered", "last_error",
        "submitted_at", "failed_at",
    ]
    private static let workerColumns = ["owner", "host", "pid", "workers", "lease", "started_at", "heartbeat_at"]

    /// Values of every storage class, at and past the edges of what a field can take.
    private static let values = [
        "NULL", "0", "-1", "1", "2147483647", "2147483648", "1099511627776", "9223372036854775807",
        "-9223372036854775808", "1.5", "-0.0", "1e300", "-1e300", "1e308", "'abc'", "''", "'yesterday'", "'pending'",
        "'running'", "'failed'", "'zombie'", "'probe'", "'{}'", "'" + String(repeating: "x", count: 500) + "'",
        "char(27) || ']0;PWNED' || char(7)", "x''", "x'ff'", "x'fffe00'", "CAST('probe' AS BLOB)", "CAST('{}' AS BLOB)",
    ]

    @Test func mutatedStoreFilesAreReadAndRunWithoutACrash() async throws {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "taskflow-store-fuzz-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let seed: UInt64 = 23
        var random = SeededGenerator(seed: seed)
        for number in 0..<150 {
            let path = scratch.appending(path: "case-\(number).sqlite").path
            try await Self.makeStore(at: path)
            var applied: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                applied.append(try Self.mutate(path, using: &random))
            }
            try await Self.readAndRun(path, label: "seed \(seed), case \(number): \(applied.joined(separator: "; "))")
        }
    }

    /// A store with jobs in every state and two worker processes recorded.
    private static func makeStore(at path: String) async throws {
        let store = try JobStore(path: path)
        try await store.submit(contentsOf: (0..<6).map(Probe.init))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                UPDATE job SET state = 'running', lease_owner = 'elsewhere:1:1', due_at = 1e10 WHERE id = 2;
                UPDATE job SET state = 'scheduled', due_at = 0, retries = 2, last_error = 'HTTP 500' WHERE id = 3;
                UPDATE job SET state = 'parked', due_at = 1e10 WHERE id = 4;
                UPDATE job SET state = 'failed', last_error = 'gave up', failed_at = 0 WHERE id = 5;
                INSERT INTO worker (owner, host, pid, workers, lease, started_at, heartbeat_at)
                    VALUES ('elsewhere:1:1', 'elsewhere', 4242, 2, 30, 0, 0), ('other:1:1', 'other', 7, 1, 30, 0, 0);
                """)
        }
        try queue.close()
    }

    /// One value into one column of one row; what was done, to replay it.
    private static func mutate(_ path: String, using random: inout SeededGenerator) throws -> String {
        let isJob = Bool.random(using: &random)
        let column = (isJob ? jobColumns : workerColumns).randomElement(using: &random) ?? "kind"
        let value = values.randomElement(using: &random) ?? "NULL"
        let sql = isJob
            ? "UPDATE job SET \(column) = \(value) WHERE id = \(Int.random(in: 1...6, using: &random))"
            : "UPDATE worker SET \(column) = \(value) WHERE rowid = (SELECT rowid FROM worker LIMIT 1 OFFSET \(Int.random(in: 0...1, using: &random)))"
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        // A constraint may refuse a value (NOT NULL, a duplicate key): that case is simply not made.
        try? queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: sql)
        }
        return sql.count > 120 ? String(sql.prefix(120)) + "…" : sql
    }

    /// Lists, shows and counts as readers do, then runs workers until nothing runnable is left.
    private static func readAndRun(_ path: String, label: String) async throws {
        let store: JobStore
        do {
            store = try JobStore(path: path, access: .read)
        } catch {
            #expect(!"\(error)".contains("\n"), "\(label): \(error)")
            return
        }
        let jobs = try await store.jobs()
        for job in jobs {
            _ = try await store.job(job.id)
            if job.state == .damaged {
                let damage = try #require(job.damage, "\(label)")
                #expect(!damage.isEmpty && !damage.contains("\n"), "\(label): \(damage)")
            }
        }
        _ = try await store.jobCounts()
        for process in try await store.workerProcesses() {
            #expect(process.damage.map { !$0.contains("\n") } ?? true, "\(label)")
            _ = process.isSilent(at: Date())
        }

        let runner = try JobStore(path: path, access: .write, lease: .seconds(5))
        runner.register(Probe.self, retry: .immediate(maxAttempts: 2)) { probe, _ in
            probe.number.isMultiple(of: 2) ? .success : .retry(CancellationError())
        }
        try await runner.start(workers: 2)
        // Done when no readable pending job of our kind is left; the bound only turns a hang
        // into a failure.
        let settled = await eventually(within: 120) {
            let left = (try? await runner.jobs()) ?? []
            return !left.contains { $0.state == .pending && $0.kind == Probe.kind }
        }
        await runner.stop()
        #expect(settled, "\(label): pending jobs never ran")
    }
}
