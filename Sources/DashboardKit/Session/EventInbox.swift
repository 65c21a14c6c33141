import TaskFlow
import TaskFlowSupport

/// Events (the engine's, a watched program's feed) on their way to the main actor, handed over in batches: a reader off the main
/// actor adds each event, and only the first event after a hand-over asks for a drain, so the
/// main thread wakes once per batch rather than once per event. Per event, each wake of the
/// dashboard's loop (the run loop's timer, the terminal's input) cost more than the event, and
/// a quit of 100,000 flows (several events each) spent most of its time waking.
final class EventInbox<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var drainAsked = false
    }

    /// The package's one lock: `Synchronization.Mutex` is a futex ThreadSanitizer cannot see.
    private let state = Protected(State())

    /// Adds `event`; true when the caller must ask for a drain (none is pending).
    func add(_ event: Event) -> Bool {
        state.withLock { state in
            state.events.append(event)
            defer { state.drainAsked = true }
            return !state.drainAsked
        }
    }

    /// Every event added since the last drain, in order; the next ``add(_:)`` asks for a drain.
    func drain() -> [Event] {
        state.withLock { state in
            state.drainAsked = false
            defer { state.events = [] }
            return state.events
        }
    }
}
