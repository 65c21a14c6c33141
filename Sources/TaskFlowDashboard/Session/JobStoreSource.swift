/// A durable job store the dashboard shows in its jobs view (`Tab`) and steers: the
/// dashboard knows no store backend; the command line adapts one (SQLite today).
public protocol JobStoreSource: Sendable {
    /// The name shown: the store's path.
    var name: String { get }
    /// Every job in the store, oldest first, payloads redacted.
    func jobs() async throws -> [StoredJobRow]
    /// Queues a failed job again now.
    func retry(_ id: Int64) async throws
    /// Removes a job that is not running.
    func cancel(_ id: Int64) async throws
    /// Conditions changed: every parked job becomes pending, its retry count unchanged.
    func conditionsChanged()
}
