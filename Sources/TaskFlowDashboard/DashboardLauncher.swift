import DashboardKit
import DashboardTerminal
import Foundation

/// Shows a dashboard session the way `taskflow` and ``Dashboard`` both do: the live screen on a
/// terminal, or one line per event without one (forced, or stdout not a terminal); the theme
/// chosen (NO_COLOR honoured), signals watched, the terminal restored on every exit, and what
/// the exit left behind said on stderr. Runs on the main thread, which becomes the dashboard's
/// loop (the main actor, and so the foreground queue); `dispatchMain()` is never called.
@MainActor
package struct DashboardLauncher {
    /// The program's name, which starts each line said on stderr (`taskflow: …`).
    package let program: String
    /// How many finished flows stay listed.
    package let history: Int
    /// Theme files, by name.
    package let catalog = ThemeCatalog.standard()
    /// `NO_COLOR` is set (and not empty): no colour, and `monochrome` when no theme is asked for.
    package let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    /// No screen: one line per event.
    package let headless: Bool
    private let format: EventPrinter.Format
    /// Without a screen, the loop ends when the flows do (else on a signal only).
    private let endsWhenIdle: Bool
    /// Where the session is recorded (`--record`), and what the recording calls it.
    private let recording: (path: String, title: String)?
    /// The preferences read at start, which the session updates as the user picks a theme or
    /// a sort.
    package let preferences: PreferenceKeeper?
    /// Whether the terminal is asked to report clicks and the wheel (see ``mouse(noMouse:preference:)``).
    package let mouse: Bool

    /// The mouse is on unless turned off: the dashboard is watched and steered more than it is
    /// copied from, clicking a flow or a heading is what htop and btop users reach for, and
    /// Shift (Option on macOS) still selects text in most terminals while the mouse is on.
    /// `--no-mouse` or `mouse = false` turn it off for those who copy from the screen a lot.
    nonisolated package static let mouseByDefault = true

    /// Whether the dashboard takes the mouse: never with `--no-mouse` (`noMouse`); else as the
    /// preferences' `mouse` says (`preference`); else ``mouseByDefault``.
    nonisolated package static func mouse(noMouse: Bool, preference: Bool?) -> Bool {
        !noMouse && (preference ?? mouseByDefault)
    }

    /// A launcher for `program`, showing `output` and keeping `history` finished flows listed.
    /// `endsWhenIdle`: without a screen, the loop ends once the session's flows and jobs have.
    /// `recording`: the file the session is also written to, for `taskflow replay`, and its title.
    /// `preferences`: what the user's `config.toml` says; `history`, when nil, is its
    /// `history`, else the default. `noMouse` (`--no-mouse`) keeps the mouse off whatever the
    /// preferences say.
    package init(
        program: String, output: Dashboard.Output, history: Int?, endsWhenIdle: Bool = true,
        recording: (path: String, title: String)? = nil, preferences: PreferenceKeeper? = nil, noMouse: Bool = false
    ) {
        self.program = program
        self.preferences = preferences
        mouse = Self.mouse(noMouse: noMouse, preference: preferences?.preferences.mouse)
        self.history = history ?? preferences?.preferences.history ?? FlowBoard.defaultHistoryLimit
        self.endsWhenIdle = endsWhenIdle
        self.recording = recording
        headless = output != .automatic || isatty(STDOUT_FILENO) != 1
        format = output == .json ? .json : .text
    }

    /// The preferences where `--config` (`explicit`) or the environment puts them; nil when
    /// there is nowhere to keep them. A file that cannot be used is the start's failure, said
    /// like any input file's (file:line:column, status 2).
    nonisolated package static func preferences(explicit: String?) throws(PreferencesError) -> PreferenceKeeper? {
        try PreferenceKeeper.open(explicit: explicit, environment: ProcessInfo.processInfo.environment)
    }

    /// Runs the session `startUp` feeds until it ends, and says on stderr what the exit left
    /// behind. A terminal that cannot be used ends it at once (``DashboardExit/startUpFailed(message:)``).
    package func show(_ makeStartUp: (DashboardSession) -> any DashboardStartUp) -> DashboardExit {
        let session = DashboardSession(
            scenarioName: "starting", theme: .fallback, themes: catalog, exitsWhenScenarioEnds: headless && endsWhenIdle,
            historyLimit: history)
        session.preferences = preferences
        let recorder: SessionRecording?
        do {
            // Before the terminal is touched: a file that cannot be written is one line, status 2.
            recorder = try recording.map { try SessionRecording.attach(to: session, path: $0.path, title: $0.title) }
        } catch {
            return failed("\(error)")
        }
        // Once the loop ended, whatever the way: the lines still waiting are written.
        defer { recorder?.close() }
        let startUp = makeStartUp(session)
        if headless {
            let printer = EventPrinter(format: format)
            printer.attach(to: session)
            startUp.run(onScreen: false)
            let exit = MainLoop(session: session, backend: nil).run()
            printer.flush()
            startUp.shutDown(within: Self.shutDownLimit)
            return report(exit)
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen(noColor: noColor, mouse: mouse)
        } catch {
            // No usable terminal is a usage problem (run it in one, or go headless): status 2.
            return failed("\(error)")
        }
        defer { screen.restore() }
        startUp.run(onScreen: true)
        let exit = MainLoop(session: session, backend: TerminalBackend(screen: screen), keys: startUp.keys).run()
        screen.restore()
        startUp.shutDown(within: Self.shutDownLimit)
        return report(exit)
    }

    /// Ends before anything is shown: says `problem` on one line and returns the start-up failure.
    package func failed(_ problem: String) -> DashboardExit {
        report(.startUpFailed(message: "\(program): \(problem)"))
    }

    /// How long the program waits, once its loop ended, for the source to let go (a job store's
    /// running jobs to finish and commit) before it exits anyway.
    static let shutDownLimit = Duration.seconds(5)

    /// The theme to start with: the one asked for; else `monochrome` under NO_COLOR, else
    /// `default`; the built-in fallback when no theme folder exists and none was asked for.
    nonisolated package static func theme(named name: String?, noColor: Bool, catalog: ThemeCatalog) throws -> Theme {
        if let name { return try catalog.load(name) }
        guard catalog.directory != nil else { return .fallback }
        return try catalog.load(noColor ? "monochrome" : "default")
    }

    /// The theme to start with when the preferences may remember one: the one `asked` for (a
    /// bad one ends the start); else the `remembered` one, unless NO_COLOR asks for none; else
    /// as ``theme(named:noColor:catalog:)``. A remembered theme that no longer loads (its file
    /// was deleted or broken since) is no reason to stop: the default is used, and `problem`
    /// says why, for the log.
    nonisolated package static func theme(
        asked: String?, remembered: String?, noColor: Bool, catalog: ThemeCatalog
    ) throws -> (theme: Theme, problem: String?) {
        guard asked == nil, !noColor, let remembered else {
            return (try theme(named: asked, noColor: noColor, catalog: catalog), nil)
        }
        do {
            return (try catalog.load(remembered), nil)
        } catch {
            let problem = "the remembered theme \"\(remembered)\" did not load (\(error)); using the default"
            return (try theme(named: nil, noColor: noColor, catalog: catalog), problem)
        }
    }

    /// Tells on stderr, after the terminal is restored, what an exit left behind; returns it.
    package func report(_ exit: DashboardExit) -> DashboardExit {
        switch exit {
        case .quit(let leftover) where !leftover.isEmpty:
            say("quit at once; left: " + leftover.joined(separator: "; "))
        case .scenarioEnded(let incomplete) where incomplete > 0:
            say("\(incomplete) flow(s) ended with an incomplete rollback")
        case .signal(let number):
            say("stopped by signal \(number)")
        case .startUpFailed(let message):
            OutputWriter.standardError.write(message + "\n")
        default:
            break
        }
        return exit
    }

    /// Writes `<program>: <message>` to stderr.
    private func say(_ message: String) {
        OutputWriter.standardError.write("\(program): \(message)\n")
    }
}
