import DashboardKit
import Foundation
import TaskFlow

/// TaskFlow's live dashboard over a program's own flows, job queues and job store: the screen
/// `taskflow` shows for its demos, embedded in the program that runs the work.
///
/// ```swift
/// import TaskFlow
/// import TaskFlowDashboard
///
/// let manager = TaskFlowManager()
/// let uploads = JobQueue(title: "Uploads", maxConcurrent: 2)
/// manager.execute(title: "Import", access: .write) { flow in … }
/// let outcome = Dashboard(title: "Importer", manager: manager, queues: [uploads]).run()
/// exit(outcome.status)
/// ```
///
/// What it guarantees:
/// - **What shows.** Every flow of `manager`: those live when ``run()`` starts, and every flow
///   submitted after, from any thread. The queues view lists `queues`, the stored jobs view
///   `store`, each behind `Tab` when given.
/// - **Keys act on the program's own flows** through the manager, by id: `c` cancels the
///   selected flow and its rollback unwinds on screen, `u` undoes a completed write flow (after
///   a `y`); the queue keys pause, resume and cancel `queues`' jobs; the store keys retry and
///   cancel `store`'s jobs. `q` cancels every flow still active, waits for the rollbacks, then
///   returns; a second `q` returns at once. `?` lists every key.
/// - **The main thread** runs the dashboard's loop while ``run()`` runs, and with it the
///   foreground queue: `flow.main` steps and ``JobQueue/main`` jobs run there, between frames.
/// - **The terminal** is restored on every way out: `q`, a signal (SIGINT, SIGTERM, SIGHUP…:
///   ``DashboardExit/signal(_:)``), a crash signal, Ctrl-Z (suspended, redrawn after `fg`).
/// - **Without a terminal** (stdout is not one, or `output: .text` or `.json` asked for), it
///   prints one line per event, exactly as `taskflow --headless` (or `--json`) does, and
///   returns as ``HeadlessEnd`` says.
/// - **Recording** (`recording:`) writes what it shows to a file `taskflow replay` plays.
/// - **Bad options** (a theme that does not load, a history out of range, a recording file that
///   cannot be created, no usable terminal)
///   end it before anything is shown, with one line on stderr:
///   ``DashboardExit/startUpFailed(message:)``, status 2.
public struct Dashboard: Sendable {
    /// Where the events go.
    public enum Output: Sendable, Hashable {
        /// The live dashboard when stdout is a terminal; text lines otherwise.
        case automatic
        /// One text line per event, even on a terminal: `taskflow --headless`.
        case text
        /// One JSON object per event and line (JSON Lines), even on a terminal: `taskflow --json`.
        case json
    }

    /// When ``run()`` returns without a terminal (with one, only `q` or a signal end it).
    public enum HeadlessEnd: Sendable, Hashable {
        /// Once the program's work has ended, as the dashboard heard it: no flow queued,
        /// running or rolling back and every job of the queues ended — counting the flows live
        /// when ``run()`` started and every flow submitted since, the latter as long as one is
        /// submitted before the last active one finishes (a flow that starts another, a job that
        /// submits one). Every event of those flows is printed first. With nothing live when
        /// ``run()`` starts, it returns at once: start the first flow before calling it. Returns
        /// ``DashboardExit/scenarioEnded(incompleteRollbacks:)``.
        case whenIdle
        /// Only on a signal (SIGINT, SIGTERM…): for a program whose flows keep coming from other
        /// threads with pauses between them (a server, a folder watcher).
        case onSignal
    }

    /// The name shown in the header.
    public let title: String
    /// A theme from the `Themes/` folder by name, or a path to a theme file; nil: `default`
    /// (`monochrome` under `NO_COLOR`), or the built-in theme when no `Themes/` folder is found.
    public let theme: String?
    /// How many finished flows stay listed (the newest; the header counts them all), 1...1,000,000.
    public let history: Int
    /// Where the events go.
    public let output: Output
    /// When a run without a terminal returns.
    public let headlessEnd: HeadlessEnd
    /// A file the session is also written to (owner-only), for `taskflow replay`: the attach
    /// protocol's JSON lines, every snapshot and event the dashboard took in, at its times.
    public let recording: String?
    private let source: @Sendable () -> any FlowSource
    private let store: (any JobStoreSource)?

    /// A dashboard over `manager`'s flows, `queues`' jobs (the queues view) and `store`'s
    /// durable jobs (the stored jobs view, e.g. a `TaskFlowStore` `JobStore`). The themes are
    /// looked up in `$TASKFLOW_THEMES`, `./Themes`, then a `Themes` folder beside or above the
    /// executable.
    public init<State: Sendable>(
        title: String, manager: TaskFlowManager<State>, queues: [JobQueue] = [], store: (any JobStoreSource)? = nil,
        theme: String? = nil, history: Int = 1000, output: Output = .automatic, headlessEnd: HeadlessEnd = .whenIdle,
        recording: String? = nil
    ) {
        self.title = title
        self.recording = recording
        self.theme = theme
        self.history = history
        self.output = output
        self.headlessEnd = headlessEnd
        self.store = store
        let queues = queues.isEmpty ? nil : JobQueueList(queues)
        source = { ManagerSource(name: title, manager: manager, queues: queues) }
    }

    /// Shows the dashboard until the user quits, a signal arrives or, without a terminal, the
    /// flows end (``HeadlessEnd``); returns why, with the exit status to end the program with
    /// (``DashboardExit/status``: 0 after `q` or flows that all ended, 1 after an incomplete
    /// rollback, 2 for bad options, 128 + n after signal n). What the exit left behind (flows
    /// still active at a second `q`, a signal) is said on stderr, the terminal already restored.
    ///
    /// Call it on the main thread from synchronous code (top-level code in `main.swift`, or a
    /// synchronous `static func main()`), not from an async `main`: it runs the main run loop
    /// itself for as long as it shows, and returns it idle. `dispatchMain()` is never called.
    @MainActor
    public func run() -> DashboardExit {
        let preferences: PreferenceKeeper?
        do {
            // Before the terminal is taken: a bad file is its lines on an untouched screen.
            preferences = try DashboardLauncher.preferences(explicit: nil)
        } catch {
            return DashboardLauncher(program: Self.programName, output: output, history: history).failed("\(error)")
        }
        let launcher = DashboardLauncher(
            program: Self.programName, output: output, history: history, endsWhenIdle: headlessEnd == .whenIdle,
            recording: recording.map { ($0, title) }, preferences: preferences)
        guard FlowBoard.historyLimits.contains(history) else {
            return launcher.failed("history must be within \(FlowBoard.historyLimits), not \(history)")
        }
        let loaded: (theme: Theme, problem: String?)
        do {
            // Before the terminal is taken: a bad theme is one line on an untouched screen.
            loaded = try DashboardLauncher.theme(
                asked: theme, remembered: preferences?.preferences.theme, noColor: launcher.noColor, catalog: launcher.catalog)
        } catch {
            return launcher.failed("\(error)")
        }
        return launcher.show { session in
            ManagerStartUp(session: session, source: source(), store: store, title: title, theme: loaded.theme, themeProblem: loaded.problem)
        }
    }

    /// The executable's name, which starts the lines said on stderr.
    private static var programName: String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
        return name.isEmpty ? "dashboard" : name
    }
}
