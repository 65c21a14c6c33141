/// Which list the dashboard shows in its main pane. `Tab` moves to the next one that has
/// something to show, in this order.
public enum Tab: Sendable, Hashable, CaseIterable {
    /// The flows, their steps in the detail pane.
    case flows
    /// The in-process job queues (a scenario's `[[queue]]` tables), the selected job or queue
    /// in the detail pane.
    case queues
    /// The job store given with `--store`, the selected job in the detail pane.
    case store
}

extension Tab {
    /// How a panel's title names the tab: "Tab: flows".
    public var name: String {
        switch self {
        case .flows: "flows"
        case .queues: "job queues"
        case .store: "stored jobs"
        }
    }
}
