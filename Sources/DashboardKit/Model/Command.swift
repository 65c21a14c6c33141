import TaskFlow

/// An effect a key asks for, which the session carries out on the engine or the program.
/// Keeping effects out of ``DashboardModel/handle(_:)`` keeps the model pure.
package enum Command: Sendable, Hashable {
    /// Cancel one flow (rollback starts at once).
    case cancel(FlowID)
    /// Undo a completed write flow (confirmed by the user).
    case undo(FlowID)
    /// Queue a failed job of the store again.
    case retryStoredJob(StoredJobRow.ID)
    /// Remove a job of the store that is not running.
    case cancelStoredJob(StoredJobRow.ID)
    /// Cancel a job of an in-process queue.
    case cancelQueuedJob(JobID)
    /// Run a failed or cancelled job of an in-process queue again.
    case retryQueuedJob(JobID)
    /// Pause (`true`) or resume the in-process queue with this title.
    case setQueuePaused(String, Bool)
    /// Tell the store conditions changed.
    case wakeParkedJobs
    /// Flip the job store source's switch of this key (``StoreSwitch``).
    case flipStoreSwitch(Character)
    /// Switch to the next theme.
    case cycleTheme
    /// Keep `sort` as the view's sort in the preferences (`view`: its preference key).
    case rememberSort(view: String, SavedSort)
    /// Leave the program now; `leftover` describes flows that were still active.
    case exit(leftover: [String])

    /// True for what changes the watched program (its flows, jobs, queues or store), which a
    /// read-only session refuses; false for what changes only the dashboard or ends it.
    package var actsOnProgram: Bool {
        switch self {
        case .cancel, .undo, .retryStoredJob, .cancelStoredJob, .cancelQueuedJob, .retryQueuedJob, .setQueuePaused,
            .wakeParkedJobs, .flipStoreSwitch:
            true
        case .cycleTheme, .rememberSort, .exit:
            false
        }
    }
}
