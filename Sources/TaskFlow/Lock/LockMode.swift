/// Who holds the manager's lock right now.
public enum LockMode: Sendable, Hashable, CustomStringConvertible {
    /// Nobody.
    case idle
    /// `count` read flows, together.
    case read(count: Int)
    /// One write flow, alone.
    case write(FlowID)

    /// The dashboard's badge text: "idle", "READ ×n", "WRITE #id".
    public var description: String {
        switch self {
        case .idle: "idle"
        case .read(let count): "READ ×\(count)"
        case .write(let id): "WRITE \(id)"
        }
    }
}
