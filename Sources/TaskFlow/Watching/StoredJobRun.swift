/// One run of a stored job by this process's workers, as a watcher's statistics take it in:
/// the job's kind and how long its executor ran, whatever it answered (succeeded, retry,
/// parked, failed). The dashboard's stored jobs view keeps a histogram per kind of these.
public struct StoredJobRun: Sendable, Hashable {
    /// The job's kind, redacted as the listing shows it.
    public let kind: String
    /// How long the executor ran, on the real clock.
    public let duration: Duration

    /// A run of a job of `kind` whose executor took `duration`.
    public init(kind: String, duration: Duration) {
        self.kind = kind
        self.duration = duration
    }
}
