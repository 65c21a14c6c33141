import TaskFlow

/// What the dashboard can do to one flow, whatever its value type: the type-erased part of a
/// ``TaskFlow`` handle that keys act on.
package struct FlowHandle: Sendable {
    /// The flow's identity.
    package let id: FlowID
    private let cancelAction: @Sendable () -> Void
    private let undoAction: @Sendable () async throws -> Void

    /// Wraps a flow handle.
    package init<Value: Sendable>(_ flow: TaskFlow<Value>) {
        self.init(id: flow.id, cancel: { flow.cancel() }, undo: { try await flow.undo() })
    }

    /// A handle of flow `id` whose cancel and undo do what is given (tests stand in for flows).
    package init(id: FlowID, cancel: @escaping @Sendable () -> Void, undo: @escaping @Sendable () async throws -> Void) {
        self.id = id
        cancelAction = cancel
        undoAction = undo
    }

    /// See ``TaskFlow/cancel()``.
    package func cancel() { cancelAction() }

    /// See ``TaskFlow/undo()``.
    package func undo() async throws { try await undoAction() }
}
