import DashboardKit

/// What a ``DashboardLauncher`` shows and how it starts: `taskflow`'s boot (theme, scenario and
/// store loaded in parallel, drawn as the first flow), or an embedding program's manager.
@MainActor
package protocol DashboardStartUp {
    /// Starts feeding the session, at once or in the background; a failure ends the session's
    /// loop (``DashboardSession/startUpFailed(_:)``). `onScreen`: a terminal shows the session,
    /// so the start-up may draw its own progress there.
    func run(onScreen: Bool)

    /// Where typed keys go while the loop runs; nil: straight to the session.
    var keys: ((Key) -> Void)? { get }

    /// The loop ended: release what the start-up brought in, waiting at most `limit`.
    func shutDown(within limit: Duration)
}
