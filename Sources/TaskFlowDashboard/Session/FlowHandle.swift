import TaskFlow

/// What the dashboard can do to one flow, whatever its value type: the type-erased part of a
/// ``TaskFlow`` handle that keys act on.
public struct FlowHandle: Sendable {
    /// The flow's identity.
    public let id: FlowID
    private let cancelAction: @Sendable () -> Void
    private let undoAction: @Sendable () async throws -> Void

    /// Wraps a flow handle.
    public init<Value: Sendable>(_ flow: TaskFlow<Value>) {
        id = flow.id
        cancelAction = { flow.cancel() }
        undoAction = { try await flow.undo() }
    }

    /// See ``TaskFlow/cancel()``.
    public func cancel() { cancelAction() }

    /// See ``TaskFlow/undo()``.
    public func undo() async throws { try await undoAction() }
}
