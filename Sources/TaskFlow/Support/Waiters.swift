/// The callers awaiting one outcome (a flow's or a job's, through ``Completion``), each
/// resumed once with it. Almost always one (its handle's `value`), kept
/// inline (``InlineFirstList``): an array for that one was an allocation per flow or job.
///
/// Holds unsafe continuations: whoever keeps the list takes it under the lock that sets the
/// outcome, so each caller is resumed exactly once, either there or at once on arrival.
struct Waiters<Value: Sendable, Failure: Error> {
    typealias Waiter = UnsafeContinuation<Value, Failure>
    private var waiters = InlineFirstList<Waiter>()

    /// Adds a caller to resume.
    mutating func append(_ waiter: Waiter) {
        waiters.append(waiter)
    }

    /// Resumes every caller with `result`, in the order they came.
    func resume(with result: Result<Value, Failure>) {
        waiters.forEach { $0.resume(with: result) }
    }
}
