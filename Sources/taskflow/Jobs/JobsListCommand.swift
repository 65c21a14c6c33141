import ArgumentParser
import TaskFlowDashboard

/// `taskflow jobs list`: every job in the store, oldest first, or only the failed ones.
struct JobsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the store's jobs, oldest first: state, retries, and why one waits or failed.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Only the failed list.")
    var failed = false

    func run() throws {
        let jobStore = try store.open(.read)
        let failedOnly = failed
        let jobs = try awaitingStore { failedOnly ? try await jobStore.failedJobs() : try await jobStore.jobs() }
        let text = store.json ? JobText.json(jobs) : JobText.table(jobs, now: .now)
        OutputWriter.standardOutput.write(text + "\n")
    }
}
