import Foundation
import Testing
import TaskFlowStore

/// How the suite gets a store, so that the same tests run against every backend: each test takes
/// a factory as its argument. A PostgreSQL backend adds its factory to `all` (and to `durable`).
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// A new, empty place for stores: `open` on the same place reopens (and shares) its data
    /// when the backend is durable.
    let makePlace: @Sendable () throws -> StorePlace

    /// A fresh in-memory store per `open`.
    static let inMemory = StoreFactory(testDescription: "in memory") {
        StorePlace(path: nil) { lease, options in try JobStore.inMemory(lease: lease, options: options) }
    }

    /// A new SQLite file in a temporary directory.
    static let sqliteFile = StoreFactory(testDescription: "SQLite file") {
        let path = try temporaryDirectory().appendingPathComponent("jobs.sqlite").path
        return StorePlace(path: path) { lease, options in try JobStore(path: path, lease: lease, options: options) }
    }

    /// Every backend: the semantics tests.
    static let all: [StoreFactory] = [.inMemory, .sqliteFile]
    /// Backends whose data outlives a store and can be shared by several: reopen and sharing tests.
    static let durable: [StoreFactory] = [.sqliteFile]
}

/// Where a test's stores live.
struct StorePlace: Sendable {
    /// The database file, for backends that have one.
    let path: String?
    private let opener: @Sendable (Duration, JobStoreOptions) throws -> JobStore

    init(path: String?, opener: @escaping @Sendable (Duration, JobStoreOptions) throws -> JobStore) {
        self.path = path
        self.opener = opener
    }

    /// A store here, polling fast so that tests never wait long for a wake-up they did not ring.
    func open(lease: Duration = .seconds(30), recheck: Duration = .seconds(60)) throws -> JobStore {
        var options = JobStoreOptions()
        options.pollInterval = .milliseconds(10)
        options.recheckInterval = recheck
        return try opener(lease, options)
    }
}

/// A new empty directory under the system's temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
