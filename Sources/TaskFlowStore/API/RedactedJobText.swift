import Foundation

/// The text of a stored job as the CLI and the dashboard may show it: its kind, lease owner,
/// last error, payload and damage through ``JobRedaction``. What shows a job takes its text from here,
/// so no output can forget a field (`connect failed: postgres://ann:‹redacted›@db/app refused`).
public struct RedactedJobText: Sendable, Hashable {
    private let job: StoredJobInfo

    /// The text of `job`.
    public init(_ job: StoredJobInfo) {
        self.job = job
    }

    /// The kind its executor is registered under.
    public var kind: String { JobRedaction.redacted(job.kind) }
    /// The worker holding it (host, process id and store instance), as ``StoredJobInfo/leaseOwner``.
    public var leaseOwner: String? { job.leaseOwner.map(JobRedaction.redacted) }
    /// The worker holding it as people name a process, as ``StoredJobInfo/leaseHolder``.
    public var leaseHolder: String? { job.leaseHolder.map(JobRedaction.redacted) }
    /// Why it failed, or why its last retry was scheduled.
    public var lastError: String? { job.lastError.map(JobRedaction.redacted) }
    /// The payload as JSON, secrets masked (``JobRedaction/redacted(payload:)``). Worked out
    /// on each use, so a listing that does not show payloads does not pay for them.
    public var payload: String { JobRedaction.redacted(payload: job.payload) }
    /// Why its row is not a job (``StoredJobInfo/damage``): it quotes the stored value.
    public var damage: String? { job.damage.map(JobRedaction.redacted) }
}

extension StoredJobInfo {
    /// Its text as it may be shown.
    public var redactedText: RedactedJobText { RedactedJobText(self) }
}
