/// A unit of durable work: a value the store persists (as JSON) and hands, after any restart, to
/// the executor registered for its ``kind``.
///
/// ```swift
/// struct SendEmail: StoredJob { static let kind = "send-email"; let to: String }
/// ```
///
/// `kind` names the job type in the database file, so it must stay the same across releases of
/// the program: a job persisted under a kind nobody registers any more stays queued (shown by
/// ``JobStore/jobs()`` with ``StoredJobInfo/hasExecutor`` false) instead of being lost. A payload
/// whose fields changed so that it no longer decodes fails that one job with the decoding error.
public protocol StoredJob: Codable, Sendable {
    /// The stable name of this job type in the store; unique among the types registered.
    static var kind: String { get }
}
