import Foundation
import GRDB
import Testing
import TaskFlowStore
import TaskFlowTestSupport

/// `taskflow jobs …` on store files as they may be found: a stray empty file, a world-readable
/// one, one holding odd values (crafted here with SQL), one another process is writing to.
@Suite("Command line: store files as found")
struct StoreFileCommandTests {
    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-storefile-\(UUID().uuidString)")
    private var store: String { folder.appending(path: "jobs.sqlite").path }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func taskflow(_ arguments: String...) async throws -> TaskflowProcess {
        try await TaskflowProcess.run(["jobs"] + arguments + ["--store", store])
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func anEmptyFileIsNoStoreForReadingAndIsLeftEmpty() async throws {
        #expect(FileManager.default.createFile(atPath: store, contents: nil))
        for command in ["list", "workers"] {
            let refused = try await taskflow(command)
            #expect(refused.status == 2)
            #expect(refused.standardError == "taskflow: \(store): not a TaskFlow job store (not an SQLite database); left untouched\n")
        }
        #expect(try mode(store) & 0o777 != 0 && FileManager.default.contents(atPath: store)?.isEmpty == true, "nothing written")
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
    }

    @Test func submitMakesAnExistingFileAndItsWALOwnerOnly() async throws {
        for file in [store, store + "-wal"] {
            #expect(FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o644]))
        }
        let submitted = try await taskflow("submit", "k", "{}")
        #expect(submitted.status == 0, "\(submitted.standardError)")
        for file in [store, store + "-wal"] where FileManager.default.fileExists(atPath: file) {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        #expect(try mode(store) == 0o600)
    }

    @Test func readingAStoreOfTheFirstSchemaLeavesItAsItWas() async throws {
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE worker; DELETE FROM grdb_migrations WHERE identifier = 'v2: worker table'")
        }
        for command in ["list", "workers"] {
            let read = try await taskflow(command)
            #expect(read.status == 0, "\(command): \(read.standardError)")
        }
        #expect(try await queue.read { db in try db.tableExists("worker") } == false, "not upgraded by a reader")
        try queue.close()
    }

    @Test func oddStoredValuesAreShownAsDamagedNeverACrash() async throws {
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in
            try db.execute(sql: """
                UPDATE job SET retries = 'abc' WHERE id = 1;
                UPDATE job SET due_at = 1e300, last_error = x'ff' WHERE id = 2;
                INSERT INTO worker (owner, host, pid, workers, lease, started_at, heartbeat_at)
                    VALUES ('elsewhere:1:a', 'elsewhere', 1099511627776, 1, 30, 0, 0);
                """)
        }
        try queue.close()

        let list = try await taskflow("list")
        #expect(list.status == 0, "\(list.standardError)")
        let rows = list.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { Array($0.prefix(4)) } == [["1", "k", "damaged", "?"], ["2", "k", "damaged", "?"]], "\(list.standardOutput)")
        #expect(list.standardOutput.contains("retries is 'abc', not a count from 0 to 2147483647"))
        #expect(list.standardOutput.contains("due_at is 1e+300, out of range"))

        let show = try await taskflow("show", "2")
        #expect(show.status == 0 && show.standardOutput.contains("damage     due_at is 1e+300"), "\(show.standardOutput)\(show.standardError)")
        let json = try await taskflow("list", "--json")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(decoded.map { $0["state"] as? String } == ["damaged", "damaged"])

        let workers = try await taskflow("workers")
        #expect(workers.status == 0, "\(workers.standardError)")
        #expect(workers.standardOutput.contains("damaged: pid is 1099511627776, out of range"), "\(workers.standardOutput)")
    }

    @Test func aWriteLockHeldElsewhereNeitherStopsReadersNorLeavesAWriterSilent() async throws {
        #expect(try await taskflow("submit", "k", "{}").status == 0)
        let holder = try DatabaseQueue(path: store)
        try await holder.write { db in
            try db.execute(sql: """
                INSERT INTO worker (owner, host, pid, workers, lease, started_at, heartbeat_at)
                VALUES ('elsewhere:1:a', 'elsewhere', 4242, 1, 30, 0, 0)
                """)
        }
        let lock = WriteLock(holder)
        try await offThePool { try lock.take() }

        // Readers read the last commit; they never wait for the lock (it used to be 10 s, then
        // `database is locked`). No clock needed: the lock is released only further down, so a
        // reader that waited for it could only have failed.
        let list = try await taskflow("list")
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("pending"), "\(list.standardOutput)")

        // A writer waits, and says for whom, while it waits.
        let submit = try WatchedProcess(["jobs", "submit", "k", "{}", "--store", store])
        let said = try await offThePool { submit.firstErrorLine() }
        #expect(said.contains("the job store is busy") && said.contains("elsewhere:4242"), "\(said)")
        try await offThePool { lock.release() }
        #expect(try await offThePool { submit.exitStatus() } == 0)
        try holder.close()
    }
}

/// A write transaction held open, as another process's would be, on a thread of its own (GRDB
/// lets no transaction outlive one database access).
private final class WriteLock: Sendable {
    private let queue: DatabaseQueue
    private let taken = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(_ queue: DatabaseQueue) { self.queue = queue }

    /// Returns once the lock is held.
    func take() throws {
        Thread { [self] in
            try? queue.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                taken.signal()
                released.wait()
                try db.execute(sql: "COMMIT")
            }
            taken.signal()  // in case BEGIN failed: take() must not wait for ever
            done.signal()
        }.start()
        taken.wait()
    }

    /// Commits, and returns once the lock is free.
    func release() {
        released.signal()
        done.wait()
    }
}

/// The `taskflow` binary running while the test watches its stderr line by line.
private final class WatchedProcess: Sendable {
    private let process: Process
    private let errors: FileHandle

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tmux.binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
        errors = pipe.fileHandleForReading
    }

    /// Blocks until the process writes a whole line to stderr (or closes it); that line.
    func firstErrorLine() -> String {
        var bytes = Data()
        while let byte = try? errors.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { bytes += byte }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Blocks until the process ends; its status.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
