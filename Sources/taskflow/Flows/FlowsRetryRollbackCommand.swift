import ArgumentParser
import DashboardKit
import TaskFlow
import TaskFlowStore

/// `taskflow flows retry-rollback ID`: a flow whose rollback was left incomplete, handed back
/// to recovery. taskflow has no handlers for a program's reverts, so it cannot run them itself:
/// the program's next `recover()` does.
struct FlowsRetryRollbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry-rollback",
        abstract: "Hand a flow whose rollback is incomplete back to recovery: the next recover() of a program with its revert handlers rolls it back again.",
        discussion: """
            Fix what made the revert fail first (a full disk, a missing handler). The rollback \
            resumes at the first revert not done; the reverts already done are not run again. \
            taskflow itself cannot run the reverts: only the program that registered their \
            handlers can, at its next start (DurableFlows.recover()), or at once with \
            DurableFlows.retryRollback.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The id of the flow whose rollback is incomplete (see 'taskflow flows list').", transform: NumberArgument.flowID)
    var id: Int

    func run() throws {
        let (jobStore, id) = (try store.open(.write, ifMissing: FlowText.ifMissing), FlowID(id))
        try awaitingStore { try await jobStore.handBackToRecovery(id) }
        OutputWriter.standardOutput.write(
            "flow \(id) handed back to recovery: the next recover() of a program with its revert handlers rolls it back\n")
    }
}
