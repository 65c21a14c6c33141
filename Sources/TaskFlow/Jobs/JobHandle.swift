/// A job added to a queue: await its value; its id, title, status and `cancel()` come with
/// ``JobDependency``, which every handle is.
public struct JobHandle<Value: Sendable>: JobDependency {
    let record: JobRecord

    /// The job this handle stands for, as a dependency of others.
    public var scheduledJob: ScheduledJob { ScheduledJob(record: record) }

    /// The job's final value, or its final error: `CancellationError` if it was cancelled,
    /// ``JobError/dependencyFailed(job:dependency:cancelled:)`` if it never ran because a job it
    /// was added after failed. Its handlers have run by the time this returns. Awaiting it does
    /// not start or cancel anything.
    public var value: Value {
        get async throws {
            // Sound: the record holds the value of the `Job<Value>` this handle was made for. A
            // forced cast, because `as?` builds `Optional<Value>`'s type metadata at run time on
            // every call (generic code called from another module runs unspecialised).
            try await record.value as! Value
        }
    }
}
