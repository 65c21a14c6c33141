import TaskFlow

extension LockMode {
    /// The one text of a lock mode, for the header badge, the lock panel and the event log:
    /// `idle`, `READ ×n`, or `WRITE ` and the writing flow as `holder` names it.
    package func text(holder: (FlowID) -> String) -> String {
        switch self {
        case .idle: "idle"
        case .read(let count): "READ ×\(count)"
        case .write(let id): "WRITE \(holder(id))"
        }
    }
}
