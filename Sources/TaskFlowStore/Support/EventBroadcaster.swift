import TaskFlowSupport

/// The store's fan-out of every ``StoredJobEvent`` to ``JobStore/changes``: a ``Broadcaster``
/// that yields as it emits (a store emits a few events per commit, so batching would buy
/// nothing), and that the store finishes when it goes away.
typealias EventBroadcaster = Broadcaster<StoredJobEvent>

extension EventBroadcaster {
    /// Publishes what one change did, in order and together, to every subscriber. Evaluated only
    /// when someone listens.
    func emit(_ events: @autoclosure () -> [StoredJobEvent]) { emit(contentsOf: events()) }
}
