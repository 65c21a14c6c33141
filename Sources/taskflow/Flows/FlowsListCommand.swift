import ArgumentParser
import DashboardKit
import TaskFlowStore

/// `taskflow flows list`: the journal's newest flows — 100 unless told otherwise — and whether
/// there are more.
struct FlowsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the journal's durable flows, the newest \(defaultLimit) first: state, owner, and why a rollback is incomplete.",
        discussion: """
            The journal keeps the flows under way, the rollbacks left incomplete, and the newest \
            finished flows (as many as the program's undo history). A store made before durable \
            flows existed lists none, and is left as it was.

            Examples:
              taskflow flows list --limit 20
              taskflow flows list --json > flows.json
            """)

    /// How many flows a listing shows unless told: a screenful or two.
    static let defaultLimit = 100
    /// What `--limit` takes.
    static let limits = 1...1_000_000

    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp("List at most N flows, \(NumberArgument.describe(limits)) (default \(defaultLimit)).", valueName: "N"),
        transform: NumberArgument.whole(in: limits))
    var limit: Int = defaultLimit

    func run() throws {
        let jobStore = try store.open(.read, ifMissing: FlowText.ifMissing)
        // One more than asked: whether any is left out, without counting the journal.
        let wanted = limit + 1
        let flows = try awaitingStore { try await jobStore.durableFlows(limit: wanted) }
        let shown = Array(flows.prefix(limit))
        let more = flows.count > limit ? "… more (--limit N)\n" : ""
        if store.json {
            OutputWriter.standardOutput.write(FlowText.json(shown) + "\n")
            OutputWriter.standardError.write(more)
        } else if shown.isEmpty {
            OutputWriter.standardOutput.write("no durable flows\n")
        } else {
            let rows = [FlowText.tableHeading] + shown.map(FlowText.tableRow)
            OutputWriter.standardOutput.write(JobText.aligned(rows) + "\n" + more)
        }
    }
}
