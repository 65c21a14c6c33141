import DashboardKit
import Foundation
import TaskFlow
import TaskFlowDashboard
import TaskFlowScenario
import TaskFlowStore
import TaskFlowSupport

/// taskflow's start-up as a ``Boot``: the theme and the scenario load in parallel, the
/// job store opens once the scenario says whether it brings its own, and the flows start when
/// all of that is done. The dashboard draws the boot as its first flow, and the keys typed
/// meanwhile are the boot's events: held until the start-up is over, then acted on in order.
/// A step that fails ends the program before any flow starts, naming the step.
@MainActor
final class StartUp: DashboardStartUp {
    let boot = Boot<Key>(title: "Start taskflow")
    private let session: DashboardSession
    private var theme = Theme.fallback
    /// Why the theme is not the one the preferences remember, for the log.
    private var themeProblem: String?
    private var source: (any FlowSource)?
    private var store: JobStore?
    /// What the boot flow shows under a step once it is done, by step: what a recovery did.
    private let notes = BootNotes()

    /// The steps for `options` and the `remembered` preferences, feeding `session`.
    /// `makeSource` loads the scenario.
    init(
        options: DisplayOptions, remembered: Preferences?, catalog: ThemeCatalog, noColor: Bool, session: DashboardSession,
        makeSource: @escaping @Sendable () throws -> any FlowSource
    ) {
        self.session = session
        let (themeName, storePath, delay) = (options.theme, options.storePath, options.bootDelay)
        let rememberedTheme = remembered?.theme
        step("Load theme") { startUp in
            let (theme, problem) = try DashboardLauncher.theme(
                asked: themeName, remembered: rememberedTheme, noColor: noColor, catalog: catalog)
            await MainActor.run {
                startUp.theme = theme
                startUp.themeProblem = problem
            }
        }
        step("Load scenario") { startUp in
            let source = try makeSource()
            await MainActor.run { startUp.source = source }
        }
        var ready = ["Load theme", "Load scenario"]
        if let storePath {
            step("Open job store", after: ["Load scenario"]) { startUp in
                // A source with a store of its own (the outbox demo) shows that one; durable
                // flows journal in theirs, which holds no jobs to show.
                guard let source = await startUp.source, source.jobStore == nil, !(source is any RecoveringFlowSource) else {
                    return
                }
                let store = try await StartUp.openStore(storePath)
                await MainActor.run { startUp.store = store }
            }
            ready.append("Open job store")
        }
        if let delay {
            // Hidden, for the tests that type during a start-up: a step that only takes time.
            step("Wait \(delay)s (--boot-delay)") { _ in try await Task.sleep(for: .seconds(delay)) }
            ready.append("Wait \(delay)s (--boot-delay)")
        }
        step(Self.startFlowsStep, after: ready) { startUp in await startUp.startFlows() }
        boot.observer("Keys") { key in await MainActor.run { session.handle(key) } }
    }

    /// The step that starts the flows (and with them a durable source's recovery).
    private static let startFlowsStep = "Start the flows"

    /// Runs the start-up in the background, drawn as the first flow when `onScreen`; a failure
    /// ends the session's loop with its message.
    func run(onScreen: Bool) {
        let notes = notes
        if onScreen { session.showBoot(boot.progress(), note: { task in notes[task] }) }
        Task {
            do {
                try await boot.run()
            } catch {
                session.startUpFailed(failureMessage(error))
            }
        }
    }

    /// Lets the scenario's source release what it holds, waiting at most `limit`: a store's
    /// workers finish and commit their jobs.
    func shutDown(within limit: Duration) {
        guard let source else { return }
        awaiting(atMost: limit) { await source.shutDown() }
    }

    /// Keys typed during the start-up are held until it is over, then acted on in order.
    var keys: ((Key) -> Void)? {
        let boot = boot
        return { boot.send($0) }
    }

    /// The job store at `path` for the jobs view: it must exist (a typo must not leave an empty
    /// store behind) and be a TaskFlow job store.
    nonisolated private static func openStore(_ path: String) async throws -> JobStore {
        try await StoreOptions.openStore(
            at: path, access: .write, ifMissing: "create one with 'taskflow jobs submit' or your program")
    }

    /// Adds a step that records its title if it fails, for the message.
    private func step(_ title: String, after: [String] = [], _ body: @escaping @Sendable (StartUp) async throws -> Void) {
        boot.task(title, after: after) { [self] in
            do {
                try await body(self)
            } catch {
                throw StepFailure(step: title, error: error)
            }
        }
    }

    /// Starts the flows, and ends once those due at the start are listed: the keys held until
    /// then act on them.
    private func startFlows() async {
        guard let source else { return }
        session.started(scenarioName: source.name, theme: theme, themeProblem: themeProblem)
        session.start(source)
        if let store { session.attachStore(store) }
        await session.listFlowsDueAtStart(of: source)
        if let note = (source as? any RecoveringFlowSource)?.recoveryNote {
            notes[Self.startFlowsStep] = note
        }
    }

    /// The error as the user reads it (a scenario's diagnostics, one per line), then the step.
    private func failureMessage(_ error: any Error) -> String {
        guard let failure = error as? StepFailure else { return "taskflow: start-up failed: \(error)" }
        // A scenario's diagnostics start with their file, as a compiler's do; the rest is ours.
        let text = failure.error is ScenarioError ? "\(failure.error)" : "taskflow: \(failure.error)"
        return "\(text)\ntaskflow: start-up failed at \"\(failure.step)\""
    }

    /// A step's error with the step's title, so the message names the step that threw it.
    private struct StepFailure: Error {
        let step: String
        let error: any Error
    }
}

/// What the boot flow shows under a start-up step once it is done, by step title: written by
/// the step, read by the dashboard's boot flow.
private final class BootNotes: Sendable {
    private let notes = Protected<[String: String]>([:])

    subscript(step: String) -> String? {
        get { notes.withLock { $0[step] } }
        set { notes.withLock { $0[step] = newValue } }
    }
}
