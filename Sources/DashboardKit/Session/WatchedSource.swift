import TaskFlow

/// A source whose flows run in another program the dashboard watches (`taskflow attach`): the
/// program goes on after the dashboard, so `q` leaves at once and its flows keep running; and
/// its feed says more than its flows' events, in one order with them (``updates()``).
package protocol WatchedSource: FlowSource {
    /// A new stream of the program's flow events together with what its feed says beside them,
    /// in the order it said it; the dashboard follows it instead of ``FlowSource/events()``. It
    /// finishes after ``SourceUpdate/ended``.
    func updates() -> AsyncStream<SourceUpdate>
}

/// One piece of a watched program's feed (see ``WatchedSource/updates()``).
package enum SourceUpdate: Sendable {
    /// A flow event, at the moment it happened on this process's clock.
    case event(TimedFlowEvent)
    /// The feed lost `missed` events on the way (the dashboard fell behind): the flows and the
    /// lock are as `snapshot` shows them at `time` (``DashboardModel/resync(_:missed:at:origin:)``).
    case resync(ManagerSnapshot, missed: Int, time: ContinuousClock.Instant)
    /// A line for the status bar: how a command the keys sent went ("cancel #7: unknown flow 7").
    case notice(String)
    /// The program exited or the connection closed: the dashboard's loop ends (the source says
    /// why to whoever started it).
    case ended
}
