/// What a flow's body works with: the flow's identity, and every step method of
/// ``StepContext`` (`main`, `task`, `update`, `group`, `sequence`, `perform`, `state`,
/// `isCancelled`). If a step throws, the flow fails and rolls back.
public struct FlowContext<State: Sendable>: StepContext {
    /// Where the body's steps run (opaque).
    public let scope: StepScope<State>

    /// The flow's identity.
    public var id: FlowID { scope.record.info.id }
    /// The flow's title.
    public var title: String { scope.record.info.title }
    /// Read or write.
    public var access: FlowAccess { scope.record.info.access }
}
