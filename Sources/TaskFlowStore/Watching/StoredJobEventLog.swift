import Logging
import TaskFlowSupport

/// A store's events as swift-log records (``JobStoreOptions/logger``), at the levels a server's
/// operator expects:
///
/// | event                                       | level     |
/// |---------------------------------------------|-----------|
/// | job failed for good, store error            | `error`   |
/// | job recovered from a dead worker            | `notice`  |
/// | retry scheduled, parked, requeued, cancelled, purged | `info` |
/// | submitted, started, succeeded               | `debug`   |
///
/// A failed job is an `error`, not a `warning`: nobody awaits a stored job, so the log and the
/// failed list are the only places its failure shows, and it stays failed until a person (or
/// the program) retries or purges it. A recovered job is a `notice`: nothing is lost, but it may
/// have run before (its executor must be idempotent), and a worker process died.
///
/// Each record carries `taskflow.job.id` and `taskflow.job.kind`. The message is the event's
/// ``StoredJobEvent/logLine`` text: what came from the job (reasons, kinds) is redacted and
/// escaped there, so secrets and forged lines stay out of the log.
struct StoredJobEventLog: Sendable {
    let logger: Logger

    func record(_ event: StoredJobEvent) {
        let level = Self.level(of: event)
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [:]
        if let id = event.jobID { metadata["taskflow.job.id"] = "\(id.rawValue)" }
        if let kind = event.kind { metadata["taskflow.job.kind"] = "\(JobRedaction.redacted(kind).escapingControlCharacters)" }
        if case .started(_, _, let attempt) = event {
            metadata["taskflow.job.retries"] = "\(attempt.retries)"
            if attempt.isRecovery { metadata["taskflow.job.recovery"] = "true" }
        }
        logger.log(level: level, "\(event.logLine.text)", metadata: metadata)
    }

    private static func level(of event: StoredJobEvent) -> Logger.Level {
        switch event {
        case .failed, .storeError: .error
        case .recovered: .notice
        case .retryScheduled, .parked, .requeued, .cancelled, .purged: .info
        case .submitted, .started, .succeeded: .debug
        }
    }
}

extension StoredJobEvent {
    /// The kind of the job the event is about, if it is about one.
    fileprivate var kind: String? {
        switch self {
        case .submitted(_, let kind), .started(_, let kind, _), .parked(_, let kind), .retryScheduled(_, let kind, _, _, _),
            .succeeded(_, let kind), .failed(_, let kind, _), .recovered(_, let kind), .requeued(_, let kind),
            .cancelled(_, let kind):
            kind
        case .purged, .storeError: nil
        }
    }
}
