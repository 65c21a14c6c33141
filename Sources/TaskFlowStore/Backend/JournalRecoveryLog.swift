import Logging
import TaskFlowSupport

extension Logger {
    /// Tells, at `notice`, of each durable flow that `selection` took over when it is a
    /// recovery's (``JournalSelection/interrupted(isDead:)``): a process died with the flow
    /// unfinished, and this one now rolls it back. Each record carries `taskflow.flow.id`, the
    /// flow's title (redacted and escaped, as listings show it) and the owner it was taken from.
    /// Returns `flows`, so that a backend's `takeOver` ends with it.
    package func recovering(_ flows: [JournalFlow], taken selection: JournalSelection) -> [JournalFlow] {
        guard case .interrupted = selection else { return flows }
        for flow in flows {
            notice(
                "durable flow recovered from a process that died: rolling it back",
                metadata: [
                    "taskflow.flow.id": "\(flow.row.id)",
                    "taskflow.flow.title": "\(JobRedaction.redacted(flow.row.title).escapingControlCharacters)",
                    "taskflow.flow.owner": "\(flow.row.owner.escapingControlCharacters)",
                ])
        }
        return flows
    }
}
