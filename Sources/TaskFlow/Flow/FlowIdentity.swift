/// A flow's identity within one ``TaskFlowManager``: assigned in submission order, starting at 1.
public struct FlowID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The submission number; later flows have larger numbers.
    public let rawValue: Int

    /// Wraps a submission number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier submissions order first.
    public static func < (lhs: FlowID, rhs: FlowID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "#<number>".
    public var description: String { "#\(rawValue)" }
}

/// How a flow holds the manager's lock for its whole life, rollback included.
public enum FlowAccess: String, Sendable, Hashable, CaseIterable {
    /// Shared: runs beside other read flows and sees a snapshot of the state.
    case read
    /// Exclusive: runs alone and may change the state through ``FlowContext/update(title:_:)``.
    case write
}

/// What an observer needs to know about a flow when it is submitted.
public struct FlowInfo: Sendable, Hashable {
    /// The flow's identity.
    public let id: FlowID
    /// The title given to ``TaskFlowManager/execute(title:access:body:)``.
    public let title: String
    /// Read or write.
    public let access: FlowAccess

    /// Creates a description of a flow.
    public init(id: FlowID, title: String, access: FlowAccess) {
        self.id = id
        self.title = title
        self.access = access
    }
}
