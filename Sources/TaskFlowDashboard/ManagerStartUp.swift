import DashboardKit
import TaskFlow

/// An embedding program's start-up: its manager, queues and store are there already, and the
/// theme was loaded before the terminal was taken, so the dashboard shows them at once.
@MainActor
struct ManagerStartUp: DashboardStartUp {
    let session: DashboardSession
    let source: any FlowSource
    let store: (any JobStoreSource)?
    let title: String
    let theme: Theme
    /// Why the theme is not the one the preferences remember, for the log.
    let themeProblem: String?

    func run(onScreen: Bool) {
        session.started(scenarioName: title, theme: theme, themeProblem: themeProblem)
        session.start(source)
        // Beside the flows, not instead of them: the flows view opens first.
        if let store { session.attachStore(store) }
    }

    var keys: ((Key) -> Void)? { nil }

    /// The program owns its manager, queues and store: nothing to release.
    func shutDown(within limit: Duration) {}
}
