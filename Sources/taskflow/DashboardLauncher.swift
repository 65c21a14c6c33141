import DashboardTerminal
import Foundation
import TaskFlowDashboard
import TOMLSource
import TaskFlowStore

/// Shows a flow source: the live dashboard on a terminal, or one line per event without one.
/// Returns the process's exit status. Runs on the main thread, which becomes the dashboard's
/// loop (the main actor); `dispatchMain()` is never called.
@MainActor
struct DashboardLauncher {
    let options: DisplayOptions

    func show(_ source: some FlowSource) -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let catalog = ThemeCatalog.standard()
        let theme: Theme
        do {
            theme = try Self.theme(named: options.theme, noColor: noColor, catalog: catalog)
        } catch {
            // A theme file is input the user gave, like a scenario file: status 2.
            return fail(error, status: 2)
        }
        let store: StoreJobSource?
        do {
            // A source with a store of its own (the outbox demo) shows that one.
            store = source.jobStore == nil ? try options.storePath.map(Self.openStore) : nil
        } catch {
            return fail(error, status: 2)
        }
        if options.headless || options.json || isatty(STDOUT_FILENO) != 1 {
            return showHeadless(source, theme: theme, catalog: catalog)
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen(noColor: noColor)
        } catch {
            // No usable terminal is a usage problem (run it in one, or pass --headless): status 2.
            return fail(error, status: 2)
        }
        defer { screen.restore() }
        let session = DashboardSession(
            scenarioName: source.name, theme: theme, themes: catalog, historyLimit: options.history)
        session.start(source)
        if let store { session.attachStore(store) }
        let exit = MainLoop(session: session, backend: TerminalBackend(screen: screen)).run()
        screen.restore()
        report(exit)
        return exit.status
    }

    private func showHeadless(_ source: some FlowSource, theme: Theme, catalog: ThemeCatalog) -> Int32 {
        let session = DashboardSession(
            scenarioName: source.name, theme: theme, themes: catalog, exitsWhenScenarioEnds: true,
            historyLimit: options.history)
        EventPrinter(format: options.json ? .json : .text).attach(to: session)
        session.start(source)
        let exit = MainLoop(session: session, backend: nil).run()
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

    /// The job store at `path` for the jobs view: it must exist (a typo must not leave an empty
    /// store behind) and be a TaskFlow job store.
    private static func openStore(_ path: String) throws -> StoreJobSource {
        guard !path.isEmpty else { throw StoreOpeningError(message: "--store needs a path") }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreOpeningError(message: "no job store at \(path.escapingControlCharacters); create one with 'taskflow jobs submit' or your program")
        }
        return StoreJobSource(store: try JobStore(path: path), name: path)
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

    private func fail(_ error: any Error, status: Int32) -> Int32 {
        printError("\(error)")
        return status
    }
}

/// Writes `taskflow: <message>` to stderr.
func printError(_ message: String) {
    OutputWriter.standardError.write("taskflow: \(message)\n")
}

/// A `--store` that cannot be shown, said in one line.
struct StoreOpeningError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
