import ArgumentParser

/// `taskflow flows …`: the journal of durable flows in a job store, from the command line.
struct FlowsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract: "List and inspect the durable flows a job store journals, and hand a stuck rollback back to recovery.",
        discussion: """
            A program's durable flows (DurableFlows in TaskFlowStore) journal each step's revert \
            in its job store before the step runs; after a crash, the program's recover() rolls \
            them back. These commands read that journal: which flows ran, how they ended, and \
            which rollbacks were left incomplete (a revert that kept failing), with their steps.

            Every command takes --store PATH (default: $XDG_STATE_HOME/taskflow/jobs.sqlite, \
            else ~/.local/state/taskflow/jobs.sqlite) and --json. Revert fields whose name says \
            they are secret (password, token, key, auth, cookie...) are shown redacted, and so \
            are passwords in URLs. Errors exit 2 with a one-line message.

            Examples:
              taskflow flows list
              taskflow flows show 3
              taskflow flows retry-rollback 3   the next recover() of the program rolls it back again
            """,
        subcommands: [FlowsListCommand.self, FlowsShowCommand.self, FlowsRetryRollbackCommand.self]
    )
}
