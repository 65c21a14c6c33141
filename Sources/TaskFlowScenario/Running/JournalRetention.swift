/// What a ``ScenarioRun`` remembers of the flows it submitted.
package enum JournalRetention: Sendable, Hashable {
    /// Every flow and every read flow's snapshot, for the run's whole life: what
    /// ``ScenarioRun/finished()``, ``ScenarioRun/flows()`` and ``ScenarioRun/snapshot(seenBy:)``
    /// report on. Memory grows with the number of submissions; for runs that end.
    case everything
    /// Only the flows still unfinished (enough for ``ScenarioRun/stop()`` to cancel them), and no
    /// snapshots: memory stays flat however long the run goes on, so a dashboard can play a
    /// scenario for days. ``ScenarioRun/finished()`` then reports no outcomes.
    case unfinished
}
