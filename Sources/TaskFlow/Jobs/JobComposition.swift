/// Composing jobs: Sundell's groups and sequences, typed, plus `map` and `then` to combine jobs
/// whose values have different types.
///
/// ```swift
/// let both = Job.group(title: "Counts", [fetchA, fetchB])      // Job<[Int]>, in input order
/// let chain = Job.sequence(title: "In turn", [fetchA, fetchB]) // one after another
/// let mixed = Job.group(title: "Start", [loadTheme.map { _ in }, openStore.map { _ in }])
/// let shown = fetchA.then { count in render(count) }           // Job<Page> after Job<Int>
/// ```
///
/// A composite is a job like any other: it can be retried (the whole composite runs again),
/// given handlers, nested, added to a queue. Each child runs with ``Job/run()``, so its own
/// retries and handlers apply.
extension Job {
    /// Runs `jobs` in parallel; the value holds their values in the order of `jobs`.
    ///
    /// The first child that fails cancels the others (their ``JobContext/isCancelled`` turns
    /// true), the group waits for all of them and rethrows that failure. A real error wins over
    /// the `CancellationError`s it caused, whatever order they arrive in; the group throws
    /// `CancellationError` only when nothing but cancellations happened. Its progress is the
    /// fraction of children done. Children inherit the running task's executor, so a group on
    /// a ``JobQueue/blocking(title:threads:logger:)`` queue runs its children on that queue's threads.
    public static func group<Element>(title: String, _ jobs: [Job<Element>]) -> Job where Value == [Element] {
        Job(title: title) { context in
            try await withThrowingTaskGroup(of: (Int, Element).self) { group in
                for (index, job) in jobs.enumerated() {
                    group.addTask { (index, try await job.run()) }
                }
                var values = [Element?](repeating: nil, count: jobs.count)
                var failure: (any Error)?
                var done = 0
                // `next()` rather than `nextResult()`, which, unspecialised from the standard
                // library, looks up `Result`'s metadata at run time for every job.
                while true {
                    do {
                        guard let (index, value) = try await group.next() else { break }
                        values[index] = value
                        done += 1
                        context.progress(Double(done) / Double(jobs.count))
                    } catch {
                        if failure == nil || (failure is CancellationError && !(error is CancellationError)) {
                            failure = error
                        }
                        group.cancelAll()
                    }
                }
                if let failure { throw failure }
                // No failure means every child stored its value, so nothing is dropped here.
                return values.compactMap { $0 }
            }
        }
    }

    /// Runs `jobs` one after another; the value holds their values in order. Stops at the first
    /// failure and rethrows it; a cancelled sequence starts no further child (it throws
    /// `CancellationError`). Its progress is the fraction of children done.
    public static func sequence<Element>(title: String, _ jobs: [Job<Element>]) -> Job where Value == [Element] {
        Job(title: title) { context in
            var values: [Element] = []
            values.reserveCapacity(jobs.count)
            for job in jobs {
                try Task.checkCancellation()
                values.append(try await job.run())
                context.progress(Double(values.count) / Double(jobs.count))
            }
            return values
        }
    }

    /// A job with the same title that runs this one (retries and handlers included) and
    /// transforms its value. Use it to give jobs of different types a common type, for example
    /// `job.map { _ in }` to group jobs whose values do not matter.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) async throws -> T) -> Job<T> {
        Job<T>(title: title) { _ in try await transform(try await run()) }
    }

    /// A job with the same title that runs this one, then the job `next` builds from its value:
    /// a sequence of two jobs whose types differ.
    public func then<T: Sendable>(_ next: @escaping @Sendable (Value) -> Job<T>) -> Job<T> {
        Job<T>(title: title) { _ in try await next(try await run()).run() }
    }
}
