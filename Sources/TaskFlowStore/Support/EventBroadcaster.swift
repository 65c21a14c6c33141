import Logging
import TaskFlow
import TaskFlowSupport

/// The store's fan-out of every ``StoredJobEvent`` to ``JobStore/changes`` — a ``Broadcaster``
/// that the store finishes when it goes away — and to the store's logger
/// (``JobStoreOptions/logger``, see ``StoredJobEventLog``).
struct EventBroadcaster: Sendable {
    private let broadcaster = Broadcaster<StoredJobEvent>()
    private let runs = Broadcaster<StoredJobRun>()
    private let log: StoredJobEventLog?

    /// Events to the subscribers and to `logger`; swift-log's no-op logger is skipped altogether.
    init(logger: Logger) {
        log = logger.handler is SwiftLogNoOpLogHandler ? nil : StoredJobEventLog(logger: logger)
    }

    /// Publishes what one change did, in order and together, to every subscriber and the log.
    /// Evaluated only when someone listens.
    func emit(_ events: @autoclosure () -> [StoredJobEvent]) {
        guard let log else { return broadcaster.emit(contentsOf: events()) }
        let events = events()
        for event in events { log.record(event) }
        broadcaster.emit(contentsOf: events)
    }

    /// A new subscription to every event from now on.
    func subscribe() -> AsyncStream<StoredJobEvent> { broadcaster.subscribe() }

    /// Publishes a run that ended to the subscribers of ``subscribeRuns()``; evaluated (the
    /// kind redacted) only when someone listens.
    func ran(_ run: @autoclosure () -> StoredJobRun) { runs.emit(contentsOf: [run()]) }

    /// A new subscription to every run that ends from now on.
    func subscribeRuns() -> AsyncStream<StoredJobRun> { runs.subscribe() }

    /// Ends every subscription (the store went away).
    func finish() {
        broadcaster.finish()
        runs.finish()
    }
}
