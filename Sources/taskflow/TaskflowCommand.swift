import ArgumentParser
import DashboardTerminal
import Foundation
import TaskFlowDashboard

/// `taskflow`: the live dashboard over the built-in demo, or one line per event without a
/// terminal.
@main
struct TaskflowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskflow",
        abstract: "A live terminal dashboard over TaskFlow's built-in demo.",
        discussion: """
            Keys: ↑/↓ or k/j select · PgUp/PgDn scroll the log · Enter focus the steps · \
            c cancel · C cancel all · u undo (y/n) · p pause the view · / filter, Esc clear · \
            t theme · ? help · q quit (rolls back what runs; q again quits at once).
            Without a terminal on stdout, or with --headless, prints one line per event and \
            exits when the demo ends (status 1 if a rollback was incomplete). NO_COLOR is honoured.
            """
    )

    @Flag(help: "Print one line per event instead of opening the dashboard.")
    var headless = false

    @Flag(help: "Print events as JSON Lines (implies --headless).")
    var json = false

    @Option(help: ArgumentHelp("A theme name from Themes/ (default, light, high-contrast, monochrome) or a path to a .toml file.", valueName: "name|path"))
    var theme: String?

    func run() throws {
        // ParsableCommand.main() calls run() synchronously on the main thread, and the
        // dashboard's loop must own that thread: it is the main actor.
        let status = try MainActor.assumeIsolated { try launch() }
        throw ExitCode(status)
    }

    @MainActor
    private func launch() throws -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let catalog = ThemeCatalog.standard()
        let chosenTheme: Theme
        do {
            chosenTheme = try Self.theme(named: theme, noColor: noColor, catalog: catalog)
        } catch {
            return fail(error)
        }
        let demo = BuiltInDemo()
        if headless || json || isatty(STDOUT_FILENO) != 1 {
            return runHeadless(demo, theme: chosenTheme, catalog: catalog)
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen(noColor: noColor)
        } catch {
            return fail(error)
        }
        defer { screen.restore() }
        let session = DashboardSession(scenarioName: demo.name, theme: chosenTheme, themes: catalog)
        session.start(demo)
        let exit = MainLoop(session: session, output: TerminalBackend(screen: screen)).run()
        screen.restore()
        report(exit)
        return exit.status
    }

    @MainActor
    private func runHeadless(_ demo: BuiltInDemo, theme: Theme, catalog: ThemeCatalog) -> Int32 {
        let session = DashboardSession(scenarioName: demo.name, theme: theme, themes: catalog, exitsWhenScenarioEnds: true)
        let output = LineBackend(format: json ? .json : .text)
        output.attach(to: session)
        session.start(demo)
        let exit = MainLoop(session: session, output: output).run()
        report(exit)
        return exit.status
    }

    /// The theme to start with: the one asked for; else `monochrome` under NO_COLOR, else
    /// `default`; the built-in fallback when no theme folder exists and none was asked for.
    private static func theme(named name: String?, noColor: Bool, catalog: ThemeCatalog) throws -> Theme {
        if let name { return try catalog.load(name) }
        guard catalog.directory != nil else { return .fallback }
        return try catalog.load(noColor ? "monochrome" : "default")
    }

    /// Tells on stderr, after the terminal is restored, what an exit left behind.
    private func report(_ exit: DashboardExit) {
        switch exit {
        case .quit(let leftover) where !leftover.isEmpty:
            printError("quit at once; left: " + leftover.joined(separator: "; "))
        case .scenarioEnded(let incomplete) where incomplete > 0:
            printError("\(incomplete) flow(s) ended with an incomplete rollback")
        case .signal(let number):
            printError("stopped by signal \(number)")
        default:
            break
        }
    }

    private func fail(_ error: any Error) -> Int32 {
        printError("\(error)")
        return 1
    }

    private func printError(_ message: String) {
        FileHandle.standardError.write(Data("taskflow: \(message)\n".utf8))
    }
}
