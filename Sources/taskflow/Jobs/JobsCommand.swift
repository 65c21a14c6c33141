import ArgumentParser

/// `taskflow jobs …`: the durable job store from the command line.
struct JobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List, inspect, submit, retry, cancel and purge the jobs of a durable job store.",
        discussion: """
            Every command takes --store PATH (default: $XDG_STATE_HOME/taskflow/jobs.sqlite, \
            else ~/.local/state/taskflow/jobs.sqlite) and --json. Payload fields whose name \
            says they are secret (password, token, key, auth, cookie...) are shown redacted, \
            and so are passwords in URLs. Errors exit 2 with a one-line message.

            Examples:
              taskflow jobs submit send-email '{"to":"ann@example.com"}'
              taskflow jobs list
              taskflow jobs show 12
              taskflow jobs retry 12            a failed job, queued again
              taskflow jobs purge --failed
              taskflow jobs workers         the processes running workers on the store
            """,
        subcommands: [
            JobsListCommand.self, JobsShowCommand.self, JobsSubmitCommand.self,
            JobsRetryCommand.self, JobsCancelCommand.self, JobsPurgeCommand.self, JobsWorkersCommand.self,
        ]
    )
}
