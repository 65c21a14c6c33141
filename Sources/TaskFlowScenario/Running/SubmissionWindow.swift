/// How many of a run's flows are submitted and not yet finished, held at most ``limit``: the
/// runner's backpressure. A file may ask for more submissions than the engine can run (100
/// flows × 10,000 every millisecond, within the format's limits, queued faster than they ran
/// and took 100 MB a second); with the window, a submission that finds ``limit`` flows
/// outstanding waits until one of them finishes, so memory stays bounded however fast the file
/// asks, and the schedule slips instead.
///
/// Owned by the one task that submits; whoever sees a flow finish reports it through
/// ``finishes`` (any task: it is a stream's continuation). Waiting is on those reports, never
/// on a timer.
struct SubmissionWindow {
    /// The most flows outstanding at once.
    let limit: Int
    /// Where a flow's end is reported, once per flow ``admit()`` let through.
    let finishes: AsyncStream<Void>.Continuation
    private var reported: AsyncStream<Void>.Iterator
    /// Admitted flows whose end has not been read from ``finishes`` yet: at least the number
    /// really outstanding (an end may be reported and not read yet), so never fewer than it.
    private var open = 0

    /// A window letting at most `limit` flows (at least 1) be outstanding.
    init(limit: Int) {
        precondition(limit >= 1, "a window of \(limit) flows would never admit one")
        self.limit = limit
        // Unbounded buffering holds at most `limit` reports: one per admitted, unread flow.
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        finishes = continuation
        reported = stream.makeAsyncIterator()
    }

    /// Waits until fewer than ``limit`` flows are outstanding, then counts one more. Returns
    /// false, admitting none, if the calling task is cancelled before or while it waits.
    mutating func admit() async -> Bool {
        while open >= limit {
            // The stream's `next()` returns nil once the waiting task is cancelled.
            guard await reported.next() != nil else { return false }
            open -= 1
        }
        // A stop cancels the submitting task and then the flows: their ends may be read above
        // (a finished stream still hands out what it buffered), and must not admit one more.
        guard !Task.isCancelled else { return false }
        open += 1
        return true
    }
}
