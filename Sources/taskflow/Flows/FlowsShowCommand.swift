import ArgumentParser
import DashboardKit
import TaskFlow
import TaskFlowStore

/// `taskflow flows show ID`: one journaled flow and its steps, their reverts redacted.
struct FlowsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one durable flow: state, owner, times, why its rollback is incomplete, and each step's stored revert (secrets redacted).")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The flow's id (see 'taskflow flows list').", transform: NumberArgument.flowID)
    var id: Int

    func run() throws {
        let jobStore = try store.open(.read, ifMissing: FlowText.ifMissing)
        let wanted = FlowID(id)
        guard let flow = try awaitingStore({ try await jobStore.durableFlow(wanted) }) else {
            throw failure("no durable flow #\(id) in \(StoreOptions.displayName(of: store.resolvedPath))")
        }
        let text = store.json ? FlowText.json([flow]) : FlowText.details(flow)
        OutputWriter.standardOutput.write(text + "\n")
    }
}
