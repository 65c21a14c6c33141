import ArgumentParser
import DashboardKit
import DashboardTerminal
import Glibc
import TaskFlowScenario

/// `taskflow`: TaskFlow's live terminal dashboard over demos and scenario files.
/// Without a subcommand it plays the `tour` demo.
@main
struct TaskflowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskflow",
        abstract: "Watch and steer TaskFlow flows live: demos and your own scenario files.",
        discussion: """
            Without a subcommand, plays the tour demo (taskflow demo tour).

            Keys: \(KeyMap.summary).

            Without a terminal on stdout, or with --headless, prints one line per event and \
            exits when the scenario ends (status 1 if a rollback was incomplete). NO_COLOR is \
            honoured. Bad input — a usage error, a bad scenario or theme file, no usable \
            terminal — exits with status 2 and a one-line message; a signal with 128 + its \
            number, the terminal restored.

            Examples:
              taskflow                          the tour, live
              taskflow --speed 2 --headless     the tour with demo options (taskflow demo --help)
              taskflow demo                     list the demos
              taskflow demo rollback --speed 2  a demo, twice as fast
              taskflow run my-flows.toml        your own scenario
              taskflow check my-flows.toml      validate it and summarise its flows
              taskflow jobs list                the durable job store (taskflow jobs --help)
              taskflow flows list               the durable flows it journals (taskflow flows --help)
              taskflow attach                   a running program that serves its console
              taskflow replay run.jsonl         play a recording again (made with --record)
            """,
        subcommands: [
            TourCommand.self, DemoCommand.self, RunCommand.self, CheckCommand.self, JobsCommand.self, FlowsCommand.self,
            AttachCommand.self, ReplayCommand.self,
        ],
        defaultSubcommand: TourCommand.self
    )

    /// Runs the command line. Unlike ArgumentParser's own `main()`: every signal that would end
    /// the program restores the terminal first (``FatalSignals``), every byte goes out through
    /// ``OutputWriter``, and a usage error exits 2 with one line (not 64 with the usage).
    static func main() {
        OutputWriter.reserveClosedStandardDescriptors()
        FatalSignals.install()
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch {
            Glibc.exit(exitStatus(after: error))
        }
    }

    /// Says what `error` needs said and returns the exit status for it.
    private static func exitStatus(after error: any Error) -> Int32 {
        switch error {
        case let failure as CommandFailure:
            printError(failure.message)
            return failure.status
        case let problems as ScenarioError:
            // One `file:line:column: message` line per problem, the file first, as a compiler's.
            OutputWriter.standardError.write(problems.description + "\n")
            return problems.exitCode
        default:
            return argumentParserStatus(after: error)
        }
    }

    /// ``exitStatus(after:)`` for ArgumentParser's own errors and a command's `ExitCode`.
    private static func argumentParserStatus(after error: any Error) -> Int32 {
        let status = exitCode(for: error)
        if status == .success {
            // --help, `taskflow help run`, a completion script: output the user asked for. A
            // command's ExitCode(0) has no text, and adds no empty line after the events.
            let text = fullMessage(for: error)
            if !text.isEmpty { OutputWriter.standardOutput.write(text + "\n") }
            return 0
        }
        if status == .validationFailure {
            printError(usageProblem(error))
            return 2
        }
        // A command's own ExitCode (the dashboard's status): what it had to say went out already.
        let message = message(for: error)
        if !message.isEmpty { printError(message) }
        return status.rawValue
    }

    /// `unknown option '--bogus' (see 'taskflow run --help')`: ArgumentParser's message on one
    /// line, with the help command its usage text names.
    private static func usageProblem(_ error: any Error) -> String {
        var problem = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        if let first = problem.first, problem.dropFirst().first?.isLowercase ?? true {
            problem = first.lowercased() + problem.dropFirst()
        }
        let usage = fullMessage(for: error, columns: Int.max)
        guard let see = usage.firstMatch(of: /See '([^']+)'/) else { return problem }
        // The tour is what `taskflow` itself does: its help is the program's.
        let help = see.1 == "taskflow tour --help" ? "taskflow --help" : see.1
        return "\(problem) (see '\(help)')"
    }
}
