import TaskFlowTestSupport
import Foundation
import GRDB
import TaskFlowStore
import Testing

/// Bad input never crashes and never loses data: undecodable payloads fail their own job, jobs of
/// unknown kinds wait, and files that are not ours are refused untouched.
@Suite("Bad input")
struct BadInputTests {
    @Test("a payload that does not decode fails that job with the decoding error; others go on", arguments: StoreFactory.all)
    func undecodablePayload(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        store.register(Greeting.self, retry: .immediate(maxAttempts: 3)) { _, _ in .success }
        let bad = try await store.submit(kind: Greeting.kind, json: Data(#"{"nom": 1}"#.utf8))
        let good = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(2))
        #expect(log.events(of: good).last == .succeeded(good, kind: Greeting.kind))
        let failed = try await store.failedJobs()
        #expect(failed.map(\.id) == [bad])
        #expect(failed.first?.retries == 0)  // never retried: it cannot ever decode
        let reason = try #require(failed.first?.lastError)
        #expect(reason.hasPrefix("the payload does not decode as greeting:"))
        #expect(reason.contains("name"))
        await store.stop()
    }

    @Test("a job of a kind without executor stays queued, shown as such, until one is registered", arguments: StoreFactory.all)
    func unknownKind(factory: StoreFactory) async throws {
        struct Later: StoredJob { static let kind = "later"; let value: Int }
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        store.register(Greeting.self, retry: .never) { _, _ in .success }
        let orphan = try await store.submit(Later(value: 7))
        try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 2)
        #expect(await log.waitForEnds(1))
        let waiting = try await store.jobs()
        #expect(waiting.map(\.id) == [orphan])
        #expect(waiting.first?.state == .pending)
        #expect(waiting.first?.hasExecutor == false)

        let values = Recorder<Int>()
        store.register(Later.self, retry: .never) { job, _ in
            values.record(job.value)
            return .success
        }
        #expect(await log.waitForEnds(2))
        #expect(values.all == [7])
        await store.stop()
    }

    @Test("a file that is not an SQLite database is refused and left untouched")
    func notADatabase() async throws {
        let path = try temporaryDirectory().appendingPathComponent("notes.txt").path
        let content = Data("these are my notes, not a database\n".utf8)
        try content.write(to: URL(fileURLWithPath: path))
        #expect(throws: JobStoreError.notADatabase(path: path)) { try JobStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == content)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("another program's SQLite database is refused and left untouched")
    func foreignDatabase() async throws {
        let path = try temporaryDirectory().appendingPathComponent("other.sqlite").path
        let other = try DatabaseQueue(path: path)
        try await other.write { db in try db.execute(sql: "CREATE TABLE contact (name TEXT); INSERT INTO contact VALUES ('ana')") }
        try other.close()
        let before = FileManager.default.contents(atPath: path)
        #expect(throws: JobStoreError.notAJobStore(path: path)) { try JobStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// Stores opened side by side on a new file: the first one's migrator creates GRDB's list of
    /// migrations in a transaction of its own, before the migration that marks the file ours, and
    /// a store opened in between took the file for another program's (seen under ThreadSanitizer).
    @Test("a file a first open left with GRDB's empty list of migrations is adopted; one with migrations is not")
    func firstOpenLeftOnlyTheMigrationList() async throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("jobs.sqlite").path
        let started = try DatabaseQueue(path: path)
        try await started.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try started.close()
        let store = try JobStore(path: path)
        try await store.submit(Greeting(name: "ana"))
        #expect(try await store.jobs().count == 1)

        let foreign = directory.appendingPathComponent("other.sqlite").path
        let other = try DatabaseQueue(path: foreign)
        try await other.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v1: their own table')")
        }
        try other.close()
        let before = FileManager.default.contents(atPath: foreign)
        #expect(throws: JobStoreError.notAJobStore(path: foreign)) { try JobStore(path: foreign) }
        #expect(FileManager.default.contents(atPath: foreign) == before)
    }

    @Test("a store written by a newer schema is refused and left untouched")
    func newerSchema() async throws {
        let path = try temporaryDirectory().appendingPathComponent("jobs.sqlite").path
        do {
            let store = try JobStore(path: path)
            try await store.submit(Greeting(name: "ana"))
        }
        let future = try DatabaseQueue(path: path)
        try await future.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        try future.close()
        let before = FileManager.default.contents(atPath: path)
        #expect(throws: JobStoreError.newerSchema(path: path)) { try JobStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("a corrupt store is a clear error, not a crash")
    func corruptStore() async throws {
        let path = try temporaryDirectory().appendingPathComponent("jobs.sqlite").path
        do {
            let store = try JobStore(path: path)
            try await store.submit(contentsOf: (0..<500).map { Greeting(name: "n\($0)") })
        }
        // Keep SQLite's header, overwrite the pages after it with garbage.
        var bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.count > 8192)
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let error = try #require(throws: JobStoreError.self) { try JobStore(path: path) }
        #expect(error.description.hasPrefix(path + ": "))
        #expect(!error.description.contains("\n"))
    }

    @Test("a new store file and its WAL are readable and writable by their owner only")
    func ownerOnlyPermissions() async throws {
        let path = try temporaryDirectory().appendingPathComponent("jobs.sqlite").path
        let store = try JobStore(path: path)
        try await store.submit(Greeting(name: "ana"))
        for file in [path, path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600, "\(file): \(String(mode, radix: 8))")
        }
    }
}
