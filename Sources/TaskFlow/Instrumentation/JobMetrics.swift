import CoreMetrics

/// The metrics of one ``JobQueue`` (DESIGN §9), made once per queue and factory:
///
/// - `taskflow.jobs` (counter; `queue`, `outcome`): one per job as it ends, `outcome` its final
///   ``JobStatus/name`` — `succeeded`, `failed` (its last run threw, or a dependency failed and
///   it never ran) or `cancelled` (before or while it ran).
/// - `taskflow.job.duration` (timer; `queue`): from the start of a job's run to its end, its
///   retries and their backoff included; only for jobs that ran.
struct JobMetrics: Sendable {
    private let outcomes: [String: Counter]
    let duration: CoreMetrics.Timer

    /// The final statuses, by name.
    private static let outcomeNames = ["succeeded", "failed", "cancelled"]

    init(queue: String, factory: any MetricsFactory) {
        outcomes = Dictionary(
            uniqueKeysWithValues: Self.outcomeNames.map { name in
                (name, Counter(label: "taskflow.jobs", dimensions: [("queue", queue), ("outcome", name)], factory: factory))
            })
        duration = CoreMetrics.Timer(label: "taskflow.job.duration", dimensions: [("queue", queue)], factory: factory)
    }

    /// Counts a job that ended `status` (a final one).
    func ended(_ status: JobStatus) {
        outcomes[status.name]?.increment()
    }
}
