import ArgumentParser
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

            Keys: ↑/↓ or k/j select · PgUp/PgDn scroll the log · Enter focus the steps · \
            c cancel · C cancel all · u undo (y/n) · p pause the view · / filter, Esc clear · \
            t theme · ? help · q quit (rolls back what runs; q again quits at once).

            Without a terminal on stdout, or with --headless, prints one line per event and \
            exits when the scenario ends (status 1 if a rollback was incomplete). NO_COLOR is \
            honoured. A bad scenario file exits with status 2.

            Examples:
              taskflow                          the tour, live
              taskflow demo                     list the demos
              taskflow demo rollback --speed 2  a demo, twice as fast
              taskflow run my-flows.toml        your own scenario
              taskflow check my-flows.toml      validate it and summarise its flows
            """,
        subcommands: [DemoCommand.self, RunCommand.self, CheckCommand.self]
    )

    @OptionGroup var display: DisplayOptions

    func run() throws {
        try DemoCommand.play(DemoCatalog.defaultDemo, display: display)
    }
}
