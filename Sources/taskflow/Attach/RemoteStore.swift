import ConsoleProtocol
import TaskFlow

/// A watched program's job store: listed by asking the program (`storeList`), its changes as
/// the program's store logged them, and the keys' retry, remove and wake as commands to it.
struct RemoteStore: JobStoreSource {
    /// The store's name in the program.
    let name: String
    let changes: HeldStream<LogLine>
    let commands: RemoteCommands

    func listing(limit: Int) async throws -> StoreListing {
        let reply = try await commands.connection.send(.storeList(limit: limit))
        guard reply.ok, let listing = reply.listing else { throw RemoteError(reply.message ?? "the program sent no listing") }
        return listing.core
    }

    func changeLog() -> AsyncStream<LogLine> { changes.take() }

    func retry(_ id: StoredJobRow.ID) async throws {
        try await commands.perform(.storeRetry(id.rawValue), "retry of stored \(id)")
    }

    func cancel(_ id: StoredJobRow.ID) async throws {
        try await commands.perform(.storeRemove(id.rawValue), "removal of stored \(id)")
    }

    func conditionsChanged() { commands.fire(.storeWake, "wake of parked jobs") }
}
