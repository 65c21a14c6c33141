/// A job added to a queue: await its value, watch its status, cancel it.
public struct JobHandle<Value: Sendable>: JobDependency {
    let record: JobRecord

    /// The job this handle stands for, as a dependency of others.
    public var scheduledJob: ScheduledJob { ScheduledJob(record: record) }

    /// The job's identity, as in the queue's events.
    public var id: JobID { record.id }
    /// The job's title.
    public var title: String { record.title }
    /// Where the job is now: waiting, running, retrying (with the next attempt's time) or one
    /// of the final states.
    public var status: JobStatus { record.status }

    /// The job's final value, or its final error: `CancellationError` if it was cancelled,
    /// ``JobError/dependencyFailed(job:dependency:cancelled:)`` if it never ran because a job it
    /// was added after failed. Its handlers have run by the time this returns. Awaiting it does
    /// not start or cancel anything.
    public var value: Value {
        get async throws {
            // The record holds the value of the `Job<Value>` this handle was made for.
            guard let value = try await record.value as? Value else {
                preconditionFailure("JobHandle: a job's value has the job's type")
            }
            return value
        }
    }

    /// Cancels the job. Waiting: it never runs, ends `cancelled` at once and its dependents fail.
    /// Running: its ``JobContext/isCancelled`` turns true and cancellable awaits in it throw; it
    /// ends `cancelled` if it stops by throwing `CancellationError`, else as its run ends. No
    /// further retry starts. Ended: nothing happens.
    public func cancel() { record.cancel() }
}
