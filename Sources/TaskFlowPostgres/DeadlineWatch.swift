import DequeModule
import TaskFlow
import TaskFlowSupport

/// Gives up on a backend's requests that get no answer within one fixed limit: the caller gets
/// ``PostgresStoreError/server(server:message:)`` at the limit, whether or not the request ever
/// ends. One sleeping task watches every request's deadline.
///
/// Why a deadline at all: after the server restarts, a request postgres-nio took just before it
/// went down may never be answered nor fail (seen in the process test: a worker waited for ever,
/// and with it the store's `stop()`). The store treats a late answer like any database error (a
/// claim finds nothing, an outcome is committed again, fenced, so at most once), so giving up on
/// it is safe. The abandoned request is cancelled and left to end on its own in its task; it is
/// not awaited, so it cannot hold up its caller.
///
/// Why one watch and not a timer per request: every request of a backend has the same limit,
/// so the deadlines fall in the order the requests start, and a queue in that order with one
/// task sleeping until its first deadline serves them all. A timer task per request cost 10–20 %
/// of one caller's submits (measured with the deadline removed altogether: 2.74–3.36 k against
/// 2.51–2.76 k jobs per second). Under steady load the watcher wakes about once per limit.
final class DeadlineWatch: Sendable {
    /// Whether a task is watching the deadlines.
    private enum Watcher {
        /// No request is pending; the next one starts a watcher.
        case idle
        /// A watcher sleeps until the first pending deadline, or is about to.
        case watching
    }

    /// A request neither answered nor given up on.
    private struct Pending {
        /// Resumes the caller with the given-up error.
        let caller: any GivingUp
        /// The request's task, cancelled if it is given up on; nil until it is made.
        var work: Task<Void, Never>?
    }

    private struct State {
        /// Every request's deadline, in the order they started, which is their deadlines' order;
        /// the answered ones in front are dropped as new ones come.
        var deadlines: Deque<ContinuousClock.Instant> = []
        /// The number of the request whose deadline is `deadlines.first`.
        var firstNumber: UInt64 = 0
        /// The requests still pending, by number.
        var pending: [UInt64: Pending] = [:]
        var watcher = Watcher.idle

        /// Drops the deadlines of answered requests from the front.
        mutating func dropAnswered() {
            while !deadlines.isEmpty, pending[firstNumber] == nil { _ = takeFirst() }
        }

        /// Drops the first deadline; returns its request, taken, if it was still pending.
        mutating func takeFirst() -> Pending? {
            deadlines.removeFirst()
            defer { firstNumber &+= 1 }
            return pending.removeValue(forKey: firstNumber)
        }
    }

    /// How long a request may go unanswered.
    let limit: Duration
    /// The server as the given-up error names it.
    let server: String
    private let clock: any TimingClock
    private let state = Protected(State())

    /// A watch that gives up on requests to `server` after `limit` by `clock`.
    init(limit: Duration, server: String, clock: any TimingClock = ContinuousClock()) {
        self.limit = limit
        self.server = server
        self.clock = clock
    }

    /// Runs `operation` in a task of its own and returns what it returns, or throws
    /// ``PostgresStoreError/server(server:message:)`` once ``limit`` has passed without an
    /// answer; the operation is then cancelled and not awaited.
    func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let (number, startsWatcher) = register(continuation)
            let work = Task {
                let result = await Result { try await operation() }
                if answered(number) { continuation.resume(with: result) }
            }
            if !attach(work, to: number) {
                // Answered already (cancelling is then harmless) or given up on.
                work.cancel()
            }
            if startsWatcher { Task.detached { [self] in await watch() } }
        }
    }

    /// The number of requests pending (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    // MARK: - Bookkeeping

    /// Adds a pending request with its deadline; says whether a watcher must be started.
    private func register(_ caller: any GivingUp) -> (number: UInt64, startsWatcher: Bool) {
        state.withLock { state in
            state.dropAnswered()
            // Read under the lock, so that the queue's order is the deadlines' order.
            let deadline = clock.now.advanced(by: limit)
            let number = state.firstNumber &+ UInt64(state.deadlines.count)
            state.deadlines.append(deadline)
            state.pending[number] = Pending(caller: caller)
            let starts = state.watcher == .idle
            state.watcher = .watching
            return (number, starts)
        }
    }

    /// Keeps the request's task, to cancel it if it is given up on; false if the request is no
    /// longer pending.
    private func attach(_ work: Task<Void, Never>, to number: UInt64) -> Bool {
        state.withLock { state in
            guard state.pending[number] != nil else { return false }
            state.pending[number]?.work = work
            return true
        }
    }

    /// The request was answered: true if it was still pending, so its answer is the caller's.
    private func answered(_ number: UInt64) -> Bool {
        state.withLock { $0.pending.removeValue(forKey: number) != nil }
    }

    // MARK: - Watching

    /// Sleeps until the first pending deadline, gives up on every request whose deadline has
    /// passed, and again, until no request is pending.
    private func watch() async {
        while let wake = nextWake() {
            // The sleep throws only when its task is cancelled, and nothing cancels this one
            // (it is detached, and no one keeps its handle).
            try? await clock.sleep(until: wake, tolerance: nil)
            giveUpOnOverdue()
        }
    }

    /// The first pending deadline, or nil (and the watcher ends) if no request is pending.
    private func nextWake() -> ContinuousClock.Instant? {
        state.withLock { state in
            state.dropAnswered()
            guard let first = state.deadlines.first else {
                state.watcher = .idle
                return nil
            }
            return first
        }
    }

    private func giveUpOnOverdue() {
        let overdue = state.withLock { state -> [Pending] in
            let now = clock.now
            var overdue: [Pending] = []
            while let first = state.deadlines.first, first <= now {
                if let pending = state.takeFirst() { overdue.append(pending) }
            }
            return overdue
        }
        let error = PostgresStoreError.server(server: server, message: "no answer within \(limit)")
        for request in overdue {
            request.work?.cancel()
            request.caller.giveUp(error)
        }
    }
}

/// A caller waiting for a request, as ``DeadlineWatch`` keeps it whatever the request's value.
private protocol GivingUp: Sendable {
    /// Resumes the caller with `error`.
    func giveUp(_ error: any Error)
}

extension CheckedContinuation: GivingUp where E == any Error {
    fileprivate func giveUp(_ error: any Error) { resume(throwing: error) }
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws.
    fileprivate init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
