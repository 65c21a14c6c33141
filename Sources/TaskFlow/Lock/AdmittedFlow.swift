/// A flow the lock let in from its queue, with the ticket it holds the lock under.
///
/// A flow submitted while the lock is taken does not start a task only to suspend it at once:
/// it waits in the lock's queue as its record (``PhaseFairLock/enter(_:onEnqueued:)``), and
/// whoever hands the lock on starts it — a flow ending runs the next one on its own task
/// (``runChain()``), so a queue of write flows runs one after another on one task, without a
/// task created, scheduled and woken for each (what made a queued write flow cost several times
/// an empty task).
struct AdmittedFlow: Sendable {
    let record: FlowRecord
    let ticket: Int

    /// Runs this flow to its end on the caller's task, its outcome to its handle, then on the
    /// same task whichever flow each release let in next — the others a release admits at once
    /// (a read phase) on tasks of their own. A loop, not a recursion: a queue of 100,000 writers
    /// does not grow the stack.
    func runChain() async {
        var next = self
        while true {
            let admitted = await next.record.runAdmitted(holding: next.ticket)
            guard let first = admitted.first else { return }
            for other in admitted.dropFirst() { other.start() }
            next = first
        }
    }

    /// Runs this flow, and the flows its release lets in after it, on a task of their own.
    func start() {
        Task.detached { await runChain() }
    }

    /// Starts each of `admitted` on a task of its own: from a place that cannot wait for them
    /// (a cancel, an undo's release).
    static func start(_ admitted: [AdmittedFlow]) {
        for flow in admitted { flow.start() }
    }
}
