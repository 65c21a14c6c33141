import Foundation

/// One change in a store, as published on ``JobStore/changes`` (Forge's ChangeManager).
///
/// Every change a store makes is published, after it is committed. A retriable failure is never
/// reported as a completion: it is ``parked(_:kind:)`` or ``retryScheduled(_:kind:retries:at:reason:)``;
/// only ``succeeded(_:kind:)`` and ``failed(_:kind:reason:)`` end a job.
public enum StoredJobEvent: Sendable, Hashable {
    /// The job was persisted and queued.
    case submitted(StoredJobID, kind: String)
    /// A worker of this store handed the job to its executor.
    case started(StoredJobID, kind: String, attempt: StoredJobAttempt)
    /// The executor answered ``StoredJobOutcome/retryWhenReady``: waiting for conditions, count unchanged.
    case parked(StoredJobID, kind: String)
    /// A counted retry: the job runs again at `at`, after `retries` retries in all.
    case retryScheduled(StoredJobID, kind: String, retries: Int, at: Date, reason: String)
    /// The job is done and deleted.
    case succeeded(StoredJobID, kind: String)
    /// The job failed for good and is in the failed list, with `reason`.
    case failed(StoredJobID, kind: String, reason: String)
    /// A job that a dead worker had claimed is queued again (it will run with `isRecovery`).
    case recovered(StoredJobID, kind: String)
    /// A parked job was woken by ``JobStore/conditionsChanged()``, or a failed job was queued
    /// again by ``JobStore/retryFailed(_:)``.
    case requeued(StoredJobID, kind: String)
    /// A job that was not running was removed by ``JobStore/cancel(_:)-(StoredJobID)``.
    case cancelled(StoredJobID, kind: String)
    /// ``JobStore/purgeFailed()`` deleted this many failed jobs.
    case purged(count: Int)
    /// The store could not read or write its database (disk full, file locked too long); the
    /// workers keep trying, and jobs they held come back through their leases.
    case storeError(String)

    /// The job the event is about, if it is about one.
    public var jobID: StoredJobID? {
        switch self {
        case .submitted(let id, _), .started(let id, _, _), .parked(let id, _), .retryScheduled(let id, _, _, _, _),
             .succeeded(let id, _), .failed(let id, _, _), .recovered(let id, _), .requeued(let id, _),
             .cancelled(let id, _):
            return id
        case .purged, .storeError:
            return nil
        }
    }
}
