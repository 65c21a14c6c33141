import Foundation
import TaskFlow
import TaskFlowSupport

extension StoredJobEvent {
    /// `job 12 send-email failed: 550 no such mailbox`: the store's event in the log's words,
    /// what came from the job redacted and escaped.
    public var logLine: LogLine {
        func job(_ id: StoredJobID, _ kind: String) -> String { "job \(id) \(shown(kind))" }
        switch self {
        case .submitted(let id, let kind): return LogLine(text: "\(job(id, kind)) submitted", level: .info)
        case .started(let id, let kind, let attempt):
            let recovery = attempt.isRecovery ? " (recovery: it may have run before)" : ""
            return LogLine(text: "\(job(id, kind)) started, retries \(attempt.retries)\(recovery)", level: .info)
        case .parked(let id, let kind): return LogLine(text: "\(job(id, kind)) parked until conditions change", level: .warning)
        case .retryScheduled(let id, let kind, let retries, let at, let reason):
            let delay = String(format: "%.1fs", max(at.timeIntervalSinceNow, 0))
            return LogLine(text: "\(job(id, kind)) retry \(retries) in \(delay): \(shown(reason))", level: .warning)
        case .succeeded(let id, let kind): return LogLine(text: "\(job(id, kind)) succeeded", level: .info)
        case .failed(let id, let kind, let reason):
            return LogLine(text: "\(job(id, kind)) failed: \(shown(reason))", level: .error)
        case .recovered(let id, let kind): return LogLine(text: "\(job(id, kind)) recovered from a worker that died", level: .warning)
        case .requeued(let id, let kind): return LogLine(text: "\(job(id, kind)) queued again", level: .info)
        case .cancelled(let id, let kind): return LogLine(text: "\(job(id, kind)) cancelled", level: .warning)
        case .purged(let count): return LogLine(text: "\(count) failed job(s) purged", level: .info)
        case .storeError(let message): return LogLine(text: "job store: \(shown(message))", level: .error)
        }
    }

    private func shown(_ text: String) -> String {
        JobRedaction.redacted(text).escapingControlCharacters
    }
}
