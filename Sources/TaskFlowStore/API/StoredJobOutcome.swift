/// What an executor answers for one run of a job (Forge's executor results).
///
/// The store applies the answer in one transaction with the job's row, so after a crash a job is
/// either still queued or its outcome is fully recorded — never half of each.
public enum StoredJobOutcome: Sendable {
    /// Done: the job is deleted from the store.
    case success
    /// Conditions were not met (no network, disk busy): the job is parked with its retry count
    /// unchanged and runs again after ``JobStore/conditionsChanged()`` or, at the latest, after
    /// ``JobStoreOptions/recheckInterval``. Not a completion: no `succeeded`/`failed` event.
    case retryWhenReady
    /// A failure worth another run: the retry count goes up by one and the job runs again after
    /// the registered `RetryPolicy`'s delay — unless the policy is exhausted or does not retry
    /// this error, in which case the job fails as with ``fail(_:)``.
    case retry(any Error)
    /// A failure that no retry will fix: the job leaves the queue and is kept in the failed list
    /// (``JobStore/failedJobs()``) with this error as its reason.
    case fail(any Error)
}
