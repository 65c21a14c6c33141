import DashboardKit
import DashboardTerminal
import Foundation
import TaskFlow
import TaskFlowDashboard

/// Plays a recording: on the terminal through a ``ReplayPlayer``, or as the recorded headless
/// run's lines without one. Returns the exit status: 2 when a line could not be read (said as
/// `FILE:LINE: why` on stderr after what could be played), else the dashboard's.
@MainActor
struct ReplayLauncher {
    let path: String
    let headless: Bool
    let json: Bool
    /// Recorded seconds per second; nil plays headless as fast as possible, on screen as recorded.
    let speed: Double?
    let themeName: String?
    /// `--no-mouse`: the mouse stays off whatever the preferences say.
    let noMouse: Bool

    func run() -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let catalog = ThemeCatalog.standard()
        let headless = headless || isatty(STDOUT_FILENO) != 1
        let session = DashboardSession(scenarioName: "replay", theme: .fallback, themes: catalog)
        let source: ReplaySource
        let theme: Theme
        do {
            source = try ReplaySource.read(path, origin: session.startedAt)
            theme = try DashboardLauncher.theme(named: themeName, noColor: noColor, catalog: catalog)
        } catch let problem as ReplayFileProblem {
            OutputWriter.standardError.write(problem.description + "\n")
            return 2
        } catch {
            printError("\(error)")
            return 2
        }
        session.started(scenarioName: source.hello.title, theme: theme)
        let status = headless ? play(source.entries, on: session) : show(source.entries, on: session, noColor: noColor)
        guard let problem = source.problem else { return status }
        OutputWriter.standardError.write(problem + "\n")
        return 2
    }

    /// Prints a line per event, as the recorded headless run did, at `speed` if given.
    private func play(_ entries: [ReplayEntry], on session: DashboardSession) -> Int32 {
        let printer = EventPrinter(format: json ? .json : .text)
        printer.attach(to: session)
        // This loop holds the main thread, so the printer's timed writes never come: what it
        // holds back is written here, after each batch of lines due and at the end.
        defer { printer.flush() }
        guard let speed else {
            for entry in entries { entry.play(on: session) }
            return 0
        }
        let clock = ContinuousClock()
        var timeline = ReplayTimeline(times: entries.map(\.time), speed: speed, now: clock.now)
        while case .append(let due) = timeline.catchUp(at: clock.now) {
            for entry in entries[due] { entry.play(on: session) }
            printer.flush()
            guard let wake = timeline.nextWake() else { break }
            // Nothing else runs on this thread headless: the wait may block it.
            Thread.sleep(forTimeInterval: max((wake - clock.now).seconds, 0))
        }
        return 0
    }

    /// The dashboard with the replay's time bar and keys, until `q` or a signal.
    private func show(_ entries: [ReplayEntry], on session: DashboardSession, noColor: Bool) -> Int32 {
        let screen: TerminalScreen
        do {
            // The preferences' `mouse`, when they can be read: a replay keeps nothing else of them,
            // so a file it cannot read is no reason to refuse to play.
            let preference = (try? DashboardLauncher.preferences(explicit: nil))?.preferences.mouse
            screen = try TerminalScreen(noColor: noColor, mouse: DashboardLauncher.mouse(noMouse: noMouse, preference: preference))
        } catch {
            // No usable terminal is a usage problem (run it in one, or pass --headless): status 2.
            printError("\(error)")
            return 2
        }
        defer { screen.restore() }
        let player = ReplayPlayer(entries: entries, session: session, speed: speed ?? 1)
        player.start()
        let exit = MainLoop(session: session, backend: TerminalBackend(screen: screen), keys: { player.handle($0) }).run()
        player.stop()
        screen.restore()
        _ = DashboardLauncher(program: "taskflow", output: .automatic, history: FlowBoard.defaultHistoryLimit).report(exit)
        return exit.status
    }
}
