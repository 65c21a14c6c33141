import Synchronization

/// Fans a queue's events out to its observers, in one order for all of them, and costs a single
/// atomic load per event while nobody observes (the common case for a busy queue).
///
/// Events are yielded to each observer's unbounded `AsyncStream` under the hub's lock, so two
/// jobs finishing at once reach every observer in the same order. A queue emits a handful of
/// events per job (the flow engine's hub batches because a flow emits several per step), so
/// yielding directly keeps this simple without costing the jobs anything measurable.
final class JobEventHub: Sendable {
    private struct Observers {
        var nextID = 0
        var continuations: [Int: AsyncStream<JobEvent>.Continuation] = [:]
    }

    private let observers = Protected(Observers())
    /// Read without the lock so that emitting with no observer is one atomic load.
    private let count = Atomic<Int>(0)

    /// True while someone observes: lets callers skip building events nobody will see.
    var isObserved: Bool { count.load(ordering: .relaxed) > 0 }

    /// A stream of every event from now on, until its consumer stops iterating.
    func subscribe() -> AsyncStream<JobEvent> {
        let (stream, continuation) = AsyncStream<JobEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = observers.withLock { state in
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            count.store(state.continuations.count, ordering: .relaxed)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// Delivers an event to every observer; `event` is only built when someone observes.
    func emit(_ event: @autoclosure () -> JobEvent) {
        guard isObserved else { return }
        observers.withLock { state in
            guard !state.continuations.isEmpty else { return }
            let event = event()
            for continuation in state.continuations.values { continuation.yield(event) }
        }
    }

    /// Ends every stream when the queue goes away, so `for await` loops finish.
    deinit {
        let continuations = observers.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func unsubscribe(_ id: Int) {
        observers.withLock { state in
            state.continuations[id] = nil
            count.store(state.continuations.count, ordering: .relaxed)
        }
    }
}
