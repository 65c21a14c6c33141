import Foundation
import GRDB

/// Opening a store's file: it is checked read-only before anything writes to it, so a file
/// that is not ours (or is newer than us) is refused and left exactly as it was; a new file is
/// created readable and writable by its owner only, because payloads can hold personal data.
/// SQLite gives the `-wal` and `-shm` files it creates beside it the same permissions.
enum StoreFile {
    /// Opens (creating if needed) the store at `path` in WAL mode, migrated to the current schema.
    static func open(path: String) throws -> DatabasePool {
        if FileManager.default.fileExists(atPath: path) {
            try check(path: path)
        } else {
            try create(path: path)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration())
            try migrate(pool)
            return pool
        } catch let error as DatabaseError {
            throw JobStoreError.unreadable(path: path, reason: error.message ?? error.description)
        }
    }

    /// Brings the file up to date, looking twice if need be. GRDB reads which migrations a file
    /// has before it takes the write lock, so processes opening an old (or new) file together
    /// can all set out to run the same migration, and all but the first then fail on what it
    /// created ("table worker already exists"): a fleet restarted after an upgrade would lose
    /// processes to it. The second look, after the winner committed, finds nothing left to do;
    /// a real failure fails it again.
    private static func migrate(_ pool: DatabasePool) throws {
        do {
            try StoreSchema.migrator.migrate(pool)
        } catch is DatabaseError {
            try StoreSchema.migrator.migrate(pool)
        }
    }

    /// A fresh in-memory store (one connection, gone when the store goes).
    static func openInMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration())
        try StoreSchema.migrator.migrate(queue)
        return queue
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "TaskFlowStore"
        // Other processes may hold the write lock for a moment (a claim, a batch of outcomes):
        // wait for it rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL + NORMAL: a commit is durable against a process crash (the point of the store)
            // and costs no fsync; only a power cut can lose the last commits, never corrupt.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// The file's first 16 bytes (SQLite's magic string), read without reading the rest — a store
    /// can be gigabytes — and only from a regular file: a FIFO would block, a device never end.
    private static func header(of path: String) throws -> Data {
        // Through a symbolic link to the file it names, as SQLite will open it.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target)[.type]) as? FileAttributeType
        switch type {
        case .typeRegular?: break
        case .typeDirectory?: throw JobStoreError.unreadable(path: path, reason: "a directory, not a job store file")
        default: throw JobStoreError.unreadable(path: path, reason: "not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw JobStoreError.unreadable(path: path, reason: "cannot be read")
        }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) ?? Data()
    }

    /// Refuses a file that is not an SQLite database, is another program's database, or has
    /// migrations we do not know — reading only.
    private static func check(path: String) throws {
        let header = try header(of: path)
        // An empty file is what `create` leaves if a first open was interrupted: ours to fill.
        guard !header.isEmpty else { return }
        guard header == Data("SQLite format 3\0".utf8) else { throw JobStoreError.notADatabase(path: path) }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard applicationID == StoreSchema.applicationID || (applicationID == 0 && tables == 0) else {
                    throw JobStoreError.notAJobStore(path: path)
                }
                if tables > 0, try StoreSchema.migrator.hasBeenSuperseded(db) {
                    throw JobStoreError.newerSchema(path: path)
                }
            }
        } catch let error as DatabaseError {
            throw JobStoreError.unreadable(path: path, reason: error.message ?? error.description)
        }
    }

    /// Creates an empty file with mode 0600 (owner only), whatever the umask says.
    private static func create(path: String) throws {
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Another process created it in between: check it like any existing file.
            if errno == EEXIST { return try check(path: path) }
            throw JobStoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }
}
