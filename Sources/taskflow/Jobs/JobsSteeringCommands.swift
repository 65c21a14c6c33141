import ArgumentParser
import DashboardKit
import TaskFlowStore
import TOMLSource

/// `taskflow jobs retry ID`: a failed job back in the queue, its retry count at zero.
struct JobsRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Queue a failed job again, its retry count back at zero.")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The failed job's id.", transform: NumberArgument.jobID)
    var id: Int64

    func run() throws {
        let (jobStore, id) = (try store.open(.write), StoredJobID(id))
        try awaitingStore { try await jobStore.retryFailed(id) }
        OutputWriter.standardOutput.write("job \(id) queued again\n")
    }
}

/// `taskflow jobs cancel ID`: removes a job that is not running.
struct JobsCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Remove a job that is not running (pending, parked, scheduled or failed).")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The job's id.", transform: NumberArgument.jobID)
    var id: Int64

    func run() throws {
        let (jobStore, id) = (try store.open(.write), StoredJobID(id))
        try awaitingStore { try await jobStore.cancel(id) }
        OutputWriter.standardOutput.write("job \(id) cancelled\n")
    }
}

/// `taskflow jobs purge --failed`: deletes the failed list.
struct JobsPurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Delete every failed job (--failed is required, so that nothing else is ever meant).")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Purge the failed list.")
    var failed = false

    func validate() throws {
        guard failed else { throw ValidationError("say what to purge: --failed") }
    }

    func run() throws {
        let jobStore = try store.open(.write)
        let count = try awaitingStore { try await jobStore.purgeFailed() }
        OutputWriter.standardOutput.write("\(count) failed job\(count == 1 ? "" : "s") purged\n")
    }
}

/// ``awaiting(_:)`` for store calls: a store error (no such job, a running job, a full disk) is
/// a one-line message and exit status 2.
func awaitingStore<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    do {
        return try awaiting(work)
    } catch {
        throw failure("\(error)".escapingControlCharacters)
    }
}
