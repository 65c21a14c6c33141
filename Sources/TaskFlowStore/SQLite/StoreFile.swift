import Foundation
import GRDB

/// Opening a store's file: it is checked read-only before anything writes to it, so a file
/// that is not ours (or is newer than us) is refused and left exactly as it was. Only
/// ``StoreFileAccess/create`` makes a file (or fills an empty one); reading never writes.
/// Payloads can hold personal data, so a file opened for writing is made readable and writable
/// by its owner only, with its `-wal` and `-shm` files, whatever it was before (SQLite gives the
/// files it creates later the database's permissions).
enum StoreFile {
    /// Opens the store at `path` as `access` says: for writing, in WAL mode and migrated to the
    /// current schema; for reading, as it is. `whenBusy` hears once, in one line, when another
    /// process holds the write lock and this one waits for it (up to ``busyTimeout``).
    static func open(
        path: String, access: StoreFileAccess, whenBusy: (@Sendable (String) -> Void)? = nil
    ) throws -> any DatabaseWriter {
        switch (access, FileManager.default.fileExists(atPath: path)) {
        case (.create, false): try create(path: path)
        case (_, false): throw JobStoreError.unreadable(path: path, reason: "no such file")
        case (_, true): try check(path: path, emptyIsOurs: access == .create)
        }
        do {
            var configuration = configuration(path: path, whenBusy: whenBusy)
            guard access != .read else {
                // One connection, read-only: no migration, no write lock, nothing written.
                configuration.readonly = true
                return try DatabaseQueue(path: path, configuration: configuration)
            }
            try makeOwnerOnly(path: path)
            let pool = try openPool(path: path, configuration: configuration)
            try migrate(pool)
            return pool
        } catch let error as DatabaseError {
            throw JobStoreError.unreadable(path: path, reason: error.message ?? error.description)
        }
    }

    /// A pool on the file, waiting for it as a statement waits for a lock (up to
    /// ``busyTimeout``). The pool's first statement, `PRAGMA journal_mode = WAL`, fails at once
    /// with "database is locked", without asking the busy handler, while the last connection of
    /// another store (another process, or this one's previous store) closes the log: it
    /// checkpoints and deletes it under an exclusive lock. Stores opened and let go side by side
    /// on one file met it about one run in two.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(busyPause)
            }
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
        let queue = try DatabaseQueue(configuration: configuration(path: nil, whenBusy: nil))
        try StoreSchema.migrator.migrate(queue)
        return queue
    }

    /// How long a statement waits for another process's write lock before it fails with
    /// `database is locked`, in seconds: a claim or a batch of outcomes holds it for a moment.
    static let busyTimeout = 10.0
    /// How long a wait stays silent, in seconds: brief contention is normal, not worth a line.
    private static let quietWait = 0.2
    /// How long the busy handler sleeps between two tries, in microseconds.
    private static let busyPause: useconds_t = 5_000

    private static func configuration(path: String?, whenBusy: (@Sendable (String) -> Void)?) -> Configuration {
        var configuration = Configuration()
        configuration.label = "TaskFlowStore"
        // SQLite's own timeout waits in silence; this one says, once, who is waited for.
        let announceAt = Int(quietWait * 1e6) / Int(busyPause)
        configuration.busyMode = .callback { tries in
            if tries == announceAt, let path, let whenBusy { whenBusy(busyMessage(path: path)) }
            guard Double(tries) * Double(busyPause) / 1e6 < busyTimeout else { return false }
            usleep(busyPause)
            return true
        }
        configuration.prepareDatabase { db in
            // WAL + NORMAL: a commit is durable against a process crash (the point of the store)
            // and costs no fsync; only a power cut can lose the last commits, never corrupt.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// What a wait for the write lock says: SQLite does not tell who holds it, but the worker
    /// processes recorded in the file (read without the lock, as WAL allows) are who takes it.
    static func busyMessage(path: String) -> String {
        let waiting = "waiting up to \(Int(busyTimeout)) s"
        var configuration = Configuration()
        configuration.readonly = true
        let holders = try? DatabaseQueue(path: path, configuration: configuration).read { db -> [String] in
            guard try db.tableExists("worker") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT host, pid FROM worker ORDER BY host, pid").map { row in
                "\(StoredValue(row[0] as DatabaseValue).plain):\(StoredValue(row[1] as DatabaseValue).plain)"
            }
        }
        guard let holders, !holders.isEmpty else {
            return "\(path): the job store is busy (another process is writing to it); \(waiting)"
        }
        return "\(path): the job store is busy, its write lock held by one of the processes running workers on it "
            + "(\(holders.joined(separator: ", "))); \(waiting)"
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
    /// migrations we do not know — reading only. An empty file, or an SQLite database without
    /// tables but GRDB's empty list of migrations, is a store only where `emptyIsOurs` (creating
    /// one: what a first open interrupted, or still under way in another store, leaves: GRDB
    /// creates that list in a transaction of its own before the first migration marks the file
    /// ours); anywhere else it is not a store, and left so.
    private static func check(path: String, emptyIsOurs: Bool) throws {
        let header = try header(of: path)
        guard !header.isEmpty else {
            if emptyIsOurs { return }
            throw JobStoreError.notADatabase(path: path)
        }
        guard header == Data("SQLite format 3\0".utf8) else { throw JobStoreError.notADatabase(path: path) }
        do {
            // With the busy handler of every other connection: the look waits for a store going
            // away (see ``openPool(path:configuration:)``) like any reader.
            var configuration = configuration(path: nil, whenBusy: nil)
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let isEmpty = try Self.isEmpty(db)
                guard applicationID == StoreSchema.applicationID || (applicationID == 0 && isEmpty && emptyIsOurs) else {
                    throw JobStoreError.notAJobStore(path: path)
                }
                if !isEmpty, try StoreSchema.migrator.hasBeenSuperseded(db) {
                    throw JobStoreError.newerSchema(path: path)
                }
            }
        } catch let error as DatabaseError {
            throw JobStoreError.unreadable(path: path, reason: error.message ?? error.description)
        }
    }

    /// Whether the database holds nothing: no table but GRDB's list of migrations, and that list
    /// empty.
    private static func isEmpty(_ db: Database) throws -> Bool {
        let others = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE tbl_name != 'grdb_migrations'") ?? 0
        guard others == 0 else { return false }
        guard try db.tableExists("grdb_migrations") else { return true }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
    }

    /// Creates an empty file with mode 0600 (owner only), whatever the umask says.
    private static func create(path: String) throws {
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Another process created it in between: check it like any existing file.
            if errno == EEXIST { return try check(path: path, emptyIsOurs: true) }
            throw JobStoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    /// Takes group and other permissions off the file and its `-wal` and `-shm` (those that
    /// exist), before SQLite opens it for writing; refuses a file it cannot change (another
    /// user's), rather than write payloads others may read.
    private static func makeOwnerOnly(path: String) throws {
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_mode & 0o077 != 0 else { continue }
            guard chmod(file, status.st_mode & 0o700) == 0 else {
                let mode = String(status.st_mode & 0o777, radix: 8)
                throw JobStoreError.unreadable(
                    path: path, reason: "\(file) is readable by others (mode \(mode)) and cannot be made owner-only: "
                        + String(cString: strerror(errno)))
            }
        }
    }
}

/// How a store's file is opened.
package enum StoreFileAccess: Sendable {
    /// Created if missing (and its folder is not), an empty file adopted; migrated; owner-only.
    case create
    /// It must be a store already; migrated; owner-only. For commands that change jobs.
    case write
    /// It must be a store already; opened read-only: nothing is created, migrated or written,
    /// and no write lock is waited for (an older schema is read as it is).
    case read
}

extension StoredValue {
    /// The value without quotes, for a message (which the caller escapes for a terminal).
    fileprivate var plain: String {
        if case .text(let text) = self { return text }
        return described
    }
}
