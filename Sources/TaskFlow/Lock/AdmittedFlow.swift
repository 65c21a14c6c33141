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
    /// (a read phase) on tasks of their own.
    ///
    /// Inlined into the task's closure, and the chain out of line: most releases admit nothing,
    /// and the flow's run (its frame the largest on its task) is then called from the closure's
    /// small frame, not from the loop's. With the loop's frame under it too, a flow's frames
    /// overflowed the first slab of its task's allocator: a heap allocation for every flow.
    @inline(__always)
    func runChain() async {
        let admitted = await record.runAdmitted(holding: ticket)
        guard !admitted.isEmpty else { return }
        await Self.runChain(admitted)
    }

    /// Runs the first of `admitted` on the caller's task and the others on tasks of their own,
    /// then the same with what each release admits. A loop, not a recursion: a queue of 100,000
    /// writers does not grow the stack.
    @inline(never)
    private static func runChain(_ admitted: [AdmittedFlow]) async {
        var admitted = admitted
        while let next = admitted.first {
            for other in admitted.dropFirst() { other.start() }
            admitted = await next.record.runAdmitted(holding: next.ticket)
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
