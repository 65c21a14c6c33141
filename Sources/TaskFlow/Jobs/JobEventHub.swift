import Logging
import TaskFlowSupport

/// A ``JobQueue``'s fan-out of its events to ``JobQueue/events`` (a ``Broadcaster``) and, with a
/// log, to the queue's logger (``JobEventLog``).
struct JobEventHub: Sendable {
    private let broadcaster = Broadcaster<JobEvent>()
    private let log: JobEventLog?

    /// Events to the subscribers and to `logger`; swift-log's no-op logger is skipped altogether.
    init(queue: String, logger: Logger) {
        log = logger.handler is SwiftLogNoOpLogHandler ? nil : JobEventLog(logger: logger, queue: queue)
    }

    /// Whether anyone subscribes: events built for nobody else (progress) can be skipped.
    var isObserved: Bool { broadcaster.isObserved }

    /// A new subscription to every event from now on.
    func subscribe() -> AsyncStream<JobEvent> { broadcaster.subscribe() }

    /// Hands `event` to every subscriber and the log; `job` is the job's title, for the log's
    /// record, where the emitter has it. Evaluated only when someone listens.
    func emit(_ event: @autoclosure () -> JobEvent, about job: String? = nil) {
        guard let log else { return broadcaster.emit(event()) }
        let event = event()
        log.record(event, job: job)
        broadcaster.emit(event)
    }
}

/// A queue's events as swift-log records: a job failed for good is a `warning` (whoever awaits
/// its handle gets the error, as a failed flow's submitter does), a retry, a cancel and a
/// pause are `info`, the rest `debug`. Each record carries `taskflow.queue` and, for a job,
/// `taskflow.job.id` and its title; titles and errors are escaped.
struct JobEventLog: Sendable {
    let logger: Logger
    let queue: String

    func record(_ event: JobEvent, job: String?) {
        let level = Self.level(of: event)
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = ["taskflow.queue": "\(queue.escapingControlCharacters)"]
        if let id = event.jobID { metadata["taskflow.job.id"] = "\(id.rawValue)" }
        if let title = job ?? event.addedTitle { metadata["taskflow.job.title"] = "\(title.escapingControlCharacters)" }
        logger.log(level: level, "\(Self.message(event).escapingControlCharacters)", metadata: metadata)
    }

    private static func level(of event: JobEvent) -> Logger.Level {
        switch event {
        case .finished(_, .failed): .warning
        case .attemptFailed, .finished(_, .cancelled), .paused: .info
        case .added, .started, .progress, .finished: .debug
        }
    }

    private static func message(_ event: JobEvent) -> String {
        switch event {
        case .added: "job added"
        case .started(_, let attempt): "job started, attempt \(attempt)"
        case .progress(_, let fraction): "job progress \(Int(fraction * 100)) %"
        case .attemptFailed(_, let attempt, let maxAttempts, let error, let delay):
            "job retrying: attempt \(attempt + 1)/\(maxAttempts) in \(delay): \(error)"
        case .finished(_, let status): "job \(status)"
        case .paused(_, let paused): paused ? "queue paused" : "queue resumed"
        }
    }
}

extension JobEvent {
    /// The job's title, for `added` (the one event that carries it).
    fileprivate var addedTitle: String? {
        if case .added(let info) = self { info.title } else { nil }
    }
}
