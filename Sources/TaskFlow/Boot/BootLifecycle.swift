import DequeModule

/// The mutable state of a ``Boot``, guarded by its `Protected` lock, with one method per
/// lifecycle transition. Methods never call user code: they return what must be called, and the
/// boot calls it after releasing the lock.
struct BootLifecycle<Event: Sendable>: Sendable {
    private(set) var phase = BootPhase.configuring
    /// Events sent while `configuring` or `booting`, oldest first; empty in every other phase.
    private var buffer = Deque<Event>()
    private(set) var nodes: [BootNode] = []
    private var observers: [BootObserver<Event>] = []
    /// One task per observer, running its `deliver()`.
    private var deliveries: [Task<Void, Never>] = []
    private var progressSubscribers: [AsyncStream<BootEvent>.Continuation] = []
    private var completions: [@Sendable (Result<Void, any Error>) -> Void] = []
    /// How the boot ended, once it has.
    private var outcome: Result<Void, any Error>?

    /// Adds a task or, with `observer`, an observer. Only before `run()`.
    mutating func add(_ node: BootNode, observer: BootObserver<Event>?, boot: String) {
        precondition(phase == .configuring, "boot \"\(boot)\": \"\(node.title)\" was added after run()")
        nodes.append(node)
        if let observer {
            observers.append(observer)
            deliveries.append(Task { await observer.deliver() })
        }
    }

    /// Buffers `event` during boot, forwards it after, drops it once finished.
    mutating func send(_ event: Event) {
        switch phase {
        case .configuring, .booting: buffer.append(event)
        case .booted: for observer in observers { observer.forward(event) }
        case .finished: break
        }
    }

    /// A stream of the next run's progress; finished at once if the run already began.
    mutating func subscribeToProgress() -> AsyncStream<BootEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BootEvent.self, bufferingPolicy: .unbounded)
        if phase == .configuring { progressSubscribers.append(continuation) } else { continuation.finish() }
        return stream
    }

    /// Registers a completion callback; returns the outcome if the boot already ended, for the
    /// caller to call it with at once.
    mutating func addCompletion(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Result<Void, any Error>? {
        if let outcome { return outcome }
        completions.append(body)
        return nil
    }

    /// `configuring` → `booting`: hands out the tasks and the run's progress publisher.
    mutating func beginBoot(boot: String) throws(BootError) -> (nodes: [BootNode], progress: BootProgress) {
        guard phase == .configuring else { throw .alreadyStarted(boot: boot) }
        phase = .booting
        defer { progressSubscribers = [] }
        return (nodes, BootProgress(subscribers: progressSubscribers))
    }

    /// `booting` → `booted`: forwards the buffer in the order sent, then returns the completion
    /// callbacks to call. After `finish()` the phase stays `finished` (the buffer is gone).
    mutating func endBoot(_ result: Result<Void, any Error>) -> [@Sendable (Result<Void, any Error>) -> Void] {
        outcome = result
        if phase == .booting {
            phase = .booted
            for observer in observers { observer.forward(contentsOf: buffer) }
            buffer = []
        }
        defer { completions = [] }
        return completions
    }

    /// Any phase → `finished`: drops the buffer (events of a boot that never ended were never
    /// due), closes every observer's stream, and returns their delivery tasks to await.
    mutating func finish() -> [Task<Void, Never>] {
        phase = .finished
        buffer = []
        for subscriber in progressSubscribers { subscriber.finish() }
        progressSubscribers = []
        for observer in observers { observer.close() }
        return deliveries
    }
}
