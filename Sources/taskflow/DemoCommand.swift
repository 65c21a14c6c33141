import ArgumentParser
import DashboardKit
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

    @Argument(help: "The demo to play; without it, the list.")
    var name: String?

    @OptionGroup var display: DisplayOptions

    func run() throws {
        guard let name else { return try Self.list() }
        try Self.play(name, display: display)
    }

    /// Plays the demo called `name` (see ``DemoShelf/demo(named:)``).
    static func play(_ name: String, display: DisplayOptions) throws {
        let demo = try DemoShelf.demo(named: name)
        try show({ try demo.source(display) }, display: display, title: name)
    }

    private static func list() throws {
        let rows = try DemoShelf.demos().map { ($0.name, try $0.summary()) }
        let width = rows.map(\.0.count).max() ?? 0
        for (name, summary) in rows {
            OutputWriter.standardOutput.write(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + summary + "\n")
        }
    }
}

/// Starts taskflow on the scenario `makeSource` loads (see ``StartUp``), called `title` in a
/// recording, and exits with the dashboard's status.
func show(_ makeSource: @escaping @Sendable () throws -> any FlowSource, display: DisplayOptions, title: String) throws {
    throw ExitCode(dashboardStatus(makeSource, display: display, title: title))
}

/// Shows the flows `makeSource` loads (see ``StartUp``), called `title` in a recording, until the
/// dashboard ends; returns its exit status.
func dashboardStatus(_ makeSource: @escaping @Sendable () throws -> any FlowSource, display: DisplayOptions, title: String) -> Int32 {
    // ParsableCommand.main() calls run() synchronously on the main thread, and the
    // dashboard's loop must own that thread: it is the main actor.
    MainActor.assumeIsolated {
        let preferences: PreferenceKeeper?
        do throws(PreferencesError) {
            // Before the terminal is taken: a bad file is its lines on an untouched screen.
            preferences = try DashboardLauncher.preferences(explicit: display.configPath)
        } catch {
            OutputWriter.standardError.write("\(error)\n")
            return error.exitCode
        }
        let launcher = DashboardLauncher(
            program: "taskflow", output: display.output, history: display.history,
            recording: display.recordPath.map { ($0, title) }, preferences: preferences, noMouse: display.noMouse)
        return launcher.show { session in
            StartUp(
                options: display, remembered: preferences?.preferences, catalog: launcher.catalog, noColor: launcher.noColor,
                session: session, makeSource: makeSource)
        }.status
    }
}
