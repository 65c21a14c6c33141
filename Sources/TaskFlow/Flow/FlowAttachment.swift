/// What the code that submitted a flow keeps beside it, where the flow's steps find it
/// (``StepContext/flowAttachment``), told of the flow's end before anyone else: how a durable
/// flow's journal records the outcome before observers can act on it. `package`: the core
/// knows nothing of journals.
///
/// A class: every flow's record holds an optional one, and an optional of an existential that
/// may be a value is copied and destroyed through the runtime's generic witnesses (about 300
/// instructions per flow, attachment or not); an optional reference is a pointer.
package protocol FlowAttachment: AnyObject, Sendable {
    /// The body returned and the flow is about to complete: awaited before the completion is
    /// announced. A throw fails the flow, which then rolls back.
    func completing() async throws
    /// The flow is about to end (or an undo of it is) with `status`, after its rollback or
    /// undo: awaited before the status is announced. Not called for a completion.
    func ending(_ status: FlowStatus) async
}
