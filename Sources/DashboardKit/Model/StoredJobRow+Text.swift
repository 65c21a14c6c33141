import Foundation
import TaskFlow
import TOMLSource

extension StoredJobRow {
    /// The retry count as shown: `?` for a damaged row, whose count may be the damage.
    package var retriesText: String { state == .damaged ? "?" : "\(retries)" }

    /// Whether `r` can queue it again: only a failed job.
    package var canRetry: Bool { state == .failed }

    /// Whether `c` can remove it: any job a worker is not running.
    package var canCancel: Bool { state != .running }

    /// Why it waits, who runs it, or why it failed, with times from `timeUntil`:
    /// "next attempt in 4.2s: HTTP 500", "leased by host:812, lease ends in 28.0s".
    /// Text from the job (errors, owner) has its control characters escaped.
    package func note(timeUntil: (Date) -> Duration) -> String {
        let error = lastError.map(Self.safe)
        let when = dueAt.map { Self.relative(timeUntil($0)) }
        switch state {
        case .pending: return isRecovery ? "recovered from a worker that died" : ""
        case .running: return "leased by \(leaseOwner.map(Self.safe) ?? "?")" + (when.map { ", lease ends \($0)" } ?? "")
        case .parked: return "waiting for conditions" + (error.map { ": \($0)" } ?? "")
        case .scheduled: return "next attempt \(when ?? "soon")" + (error.map { ": \($0)" } ?? "")
        case .failed: return error ?? "failed"
        case .damaged: return damage.map(Self.safe) ?? "damaged"
        }
    }

    /// The job a field per line, the (redacted) payload last.
    package func details(timeUntil: (Date) -> Duration) -> [String] {
        guard state != .damaged else {
            // Nothing but the id, the kind and the reason is known to be true.
            return ["job        \(id)", "kind       \(kind.isEmpty ? "?" : Self.safe(kind))", "state      damaged",
                    "damage     \(Self.safe(damage ?? "?"))"]
        }
        var lines = ["job        \(id)", "kind       \(Self.safe(kind))", "state      \(state.rawValue)", "retries    \(retries)"]
        if let dueAt {
            let label = switch state {
            case .running: "lease ends "
            case .parked: "re-check   "
            default: "next run   "
            }
            lines.append(label + Self.relative(timeUntil(dueAt)))
        }
        if let leaseOwner { lines.append("leased by  \(Self.safe(leaseOwner))") }
        if isRecovery { lines.append("recovery   its next run recovers it from a worker that died") }
        if let lastError { lines.append("last error \(Self.safe(lastError))") }
        lines.append("payload    \(Self.safe(payload))")
        return lines
    }

    /// `in 4.2s` or `3.0s ago`.
    static func relative(_ remaining: Duration) -> String {
        let text = String(format: "%.1fs", abs(remaining.seconds))
        return remaining >= .zero ? "in \(text)" : "\(text) ago"
    }

    private static func safe(_ text: String) -> String { text.escapingControlCharacters }
}
