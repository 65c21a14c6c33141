/// What the code that submitted a flow keeps beside it, where the flow's steps find it
/// (``StepContext/flowAttachment``), told of the flow's end before anyone else: how a durable
/// flow's journal records the outcome before observers can act on it. `package`: the core
/// knows nothing of journals.
package protocol FlowAttachment: Sendable {
    /// The body returned and the flow is about to complete: awaited before the completion is
    /// announced. A throw fails the flow, which then rolls back.
    func completing() async throws
    /// The flow is about to end (or an undo of it is) with `status`, after its rollback or
    /// undo: awaited before the status is announced. Not called for a completion.
    func ending(_ status: FlowStatus) async
}
