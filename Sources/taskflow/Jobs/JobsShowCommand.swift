import ArgumentParser
import DashboardKit
import TaskFlowStore
import TOMLSource

/// `taskflow jobs show ID`: one job in full, its payload redacted.
struct JobsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one job: state, retries, times, lease owner, last error, payload (secrets redacted).")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The job's id (see 'taskflow jobs list').", transform: NumberArgument.jobID)
    var id: Int64

    func run() throws {
        let jobStore = try store.open(.read)
        let wanted = StoredJobID(id)
        guard let job = try awaitingStore({ try await jobStore.job(wanted) }) else {
            throw failure("no job \(id) in \(StoreOptions.displayName(of: store.resolvedPath))")
        }
        let text = store.json ? JobText.json([job]) : JobText.details(job, now: .now)
        OutputWriter.standardOutput.write(text + "\n")
    }
}
