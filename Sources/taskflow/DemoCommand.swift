import ArgumentParser
import Foundation
import TaskFlowDashboard
import TaskFlowScenario

/// `taskflow demo [NAME]`: lists the demos, or plays one.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "List the demos, or play one.",
        discussion: """
            The demos are the scenario files in the package's demo/ folder (found next to or \
            above the taskflow executable, or the current directory), plus "built-in", which \
            is compiled into taskflow and needs no files.

            Examples:
              taskflow demo                        list them
              taskflow demo publish-post           parallel uploads, then a failing publish
              taskflow demo read-write --headless  the phase-fair lock, one line per event
            """
    )

    /// The demo compiled into the executable.
    static let builtIn = "built-in"

    @Argument(help: "The demo to play; without it, the list.")
    var name: String?

    @OptionGroup var display: DisplayOptions

    func run() throws {
        guard let name else { return try Self.list() }
        try Self.play(name, display: display)
    }

    /// Plays the demo called `name`; without a demo folder, the default demo is the built-in one.
    static func play(_ name: String, display: DisplayOptions) throws {
        let folder = DemoCatalog.demoFolder()
        if name == builtIn || (folder == nil && name == DemoCatalog.defaultDemo) {
            // Its flows fail by design, not by chance: --seed has nothing to act on.
            return try show(BuiltInDemo(pace: 1 / display.speed), display: display)
        }
        guard let folder else {
            throw failure("no demo folder found (looked for demo/\(DemoCatalog.defaultDemo).toml above the executable and the current directory); try: taskflow demo \(builtIn)")
        }
        let demo = try loading { try DemoCatalog.demo(named: name, in: folder) }
        guard let demo else {
            let names = (try loading { try DemoCatalog.demos(in: folder) }).map(\.name) + [builtIn]
            throw failure("no demo named '\(name)'; the demos are: \(names.joined(separator: ", "))")
        }
        try show(ScenarioFeed(try loading { try demo.load() }, options: display.runOptions), display: display)
    }

    private static func list() throws {
        var rows: [(String, String)] = []
        if let folder = DemoCatalog.demoFolder() {
            for demo in try loading({ try DemoCatalog.demos(in: folder) }) {
                let scenario = try loading { try demo.load() }
                rows.append((demo.name, scenario.description.split(separator: "\n").first.map(String.init) ?? scenario.name))
            }
        }
        rows.append((builtIn, "the demo compiled into taskflow: no files needed"))
        let width = rows.map(\.0.count).max() ?? 0
        for (name, summary) in rows {
            OutputWriter.standardOutput.write(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + summary + "\n")
        }
    }
}

/// Shows `scenario` and exits with the dashboard's status.
func show(_ scenario: some TaskFlowDashboard.Scenario, display: DisplayOptions) throws {
    // ParsableCommand.main() calls run() synchronously on the main thread, and the
    // dashboard's loop must own that thread: it is the main actor.
    let status = MainActor.assumeIsolated { DashboardLauncher(options: display).show(scenario) }
    throw ExitCode(status)
}

/// Runs a scenario-file operation; a ``ScenarioError`` becomes one line per problem on stderr
/// and its exit status (2).
func loading<T>(_ load: () throws -> T) throws -> T {
    do {
        return try load()
    } catch let error as ScenarioError {
        OutputWriter.standardError.write(error.description + "\n")
        throw ExitCode(error.exitCode)
    }
}

/// A usage problem: said on stderr, exit 2.
func failure(_ message: String) -> ExitCode {
    printError(message)
    return ExitCode(2)
}
