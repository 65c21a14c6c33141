import DashboardTerminal
import Foundation
import TaskFlowDashboard
import TaskFlowStore

/// Shows a flow source: the live dashboard on a terminal, or one line per event without one.
/// Returns the process's exit status. Runs on the main thread, which becomes the dashboard's
/// loop (the main actor); `dispatchMain()` is never called.
@MainActor
struct DashboardLauncher {
    let options: DisplayOptions

    /// Starts taskflow through its ``StartUp`` boot with the scenario `makeSource` loads, and
    /// shows it: on the terminal, with the boot as the first flow and keys typed meanwhile held
    /// until it is over; or one line per event without one.
    func show(_ makeSource: @escaping @Sendable () throws -> any FlowSource) -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let catalog = ThemeCatalog.standard()
        let headless = options.headless || options.json || isatty(STDOUT_FILENO) != 1
        let session = DashboardSession(
            scenarioName: "starting", theme: .fallback, themes: catalog, exitsWhenScenarioEnds: headless,
            historyLimit: options.history)
        let startUp = StartUp(options: options, catalog: catalog, noColor: noColor, session: session, makeSource: makeSource)
        if headless {
            EventPrinter(format: options.json ? .json : .text).attach(to: session)
            startUp.run()
            let exit = MainLoop(session: session, backend: nil).run()
            startUp.shutDown(within: Self.shutDownLimit)
            return finish(exit)
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen(noColor: noColor)
        } catch {
            // No usable terminal is a usage problem (run it in one, or pass --headless): status 2.
            return fail(error, status: 2)
        }
        defer { screen.restore() }
        session.showBoot(startUp.boot.progress())
        startUp.run()
        let boot = startUp.boot
        let exit = MainLoop(session: session, backend: TerminalBackend(screen: screen), keys: { boot.send($0) }).run()
        screen.restore()
        startUp.shutDown(within: Self.shutDownLimit)
        return finish(exit)
    }

    /// How long the program waits, once its loop ended, for the source to let go (a job store's
    /// running jobs to finish and commit) before it exits anyway.
    static let shutDownLimit = Duration.seconds(5)

    private func finish(_ exit: DashboardExit) -> Int32 {
        report(exit)
        return exit.status
    }

    /// The theme to start with: the one asked for; else `monochrome` under NO_COLOR, else
    /// `default`; the built-in fallback when no theme folder exists and none was asked for.
    nonisolated static func theme(named name: String?, noColor: Bool, catalog: ThemeCatalog) throws -> Theme {
        if let name { return try catalog.load(name) }
        guard catalog.directory != nil else { return .fallback }
        return try catalog.load(noColor ? "monochrome" : "default")
    }

    /// The job store at `path` for the jobs view: it must exist (a typo must not leave an empty
    /// store behind) and be a TaskFlow job store.
    nonisolated static func openStore(_ path: String) async throws -> JobStore {
        try await StoreOptions.openStore(
            at: path, access: .write, ifMissing: "create one with 'taskflow jobs submit' or your program")
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
        case .startUpFailed(let message):
            OutputWriter.standardError.write(message + "\n")
        default:
            break
        }
    }

    private func fail(_ error: any Error, status: Int32) -> Int32 {
        printError("\(error)")
        return status
    }
}

/// Writes `taskflow: <message>` to stderr.
func printError(_ message: String) {
    OutputWriter.standardError.write("taskflow: \(message)\n")
}
