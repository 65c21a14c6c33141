/// The callers awaiting a job's value, each resumed once with its result. Almost always one
/// (its handle's ``JobHandle/value``), kept inline: an array for that one was an allocation per
/// job. More go to an array.
struct JobWaiters {
    private var first: UnsafeContinuation<any Sendable, any Error>?
    private var others: [UnsafeContinuation<any Sendable, any Error>] = []

    /// Adds a caller to resume.
    mutating func append(_ waiter: UnsafeContinuation<any Sendable, any Error>) {
        if first == nil { first = waiter } else { others.append(waiter) }
    }

    /// Resumes every caller with `result`, in the order they came.
    func resume(with result: Result<any Sendable, any Error>) {
        first?.resume(with: result)
        for waiter in others { waiter.resume(with: result) }
    }
}
