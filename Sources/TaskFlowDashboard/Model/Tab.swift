/// Which list the dashboard shows in its main pane: the flows, or a job store's jobs.
public enum Tab: Sendable, Hashable {
    /// The flows, their steps in the detail pane.
    case flows
    /// The job store given with `--store`, the selected job in the detail pane.
    case jobs
}
