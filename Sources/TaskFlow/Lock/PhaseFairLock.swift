import DequeModule

/// The manager's asynchronous read/write lock, phase-fair (Brandenburg & Anderson):
///
/// - A reader enters at once unless a writer holds the lock or waits for it; then it queues.
/// - A writer enters at once only when nobody holds the lock and nobody waits.
/// - When a writer leaves, **every** waiting reader enters together (a read phase), even those
///   that arrived behind other waiting writers; if none wait, the oldest writer enters.
/// - When the last reader leaves, the oldest waiting writer enters.
///
/// So a writer waits at most for one read phase, and a reader at most for one write phase:
/// neither side starves. Waiters suspend on continuations; nobody blocks a thread.
/// Every change is reported through `onChange`, called inside the lock so changes are
/// reported in the order they happened.
final class PhaseFairLock: Sendable {
    private struct Waiter {
        let ticket: Int
        let request: LockRequest
        let continuation: CheckedContinuation<Void, any Error>
        var access: FlowAccess { request.holder.access }
    }

    private struct State {
        var writer: LockHolder?
        /// Readers by ticket, so a release finds its entry in O(1). Tickets grow with arrival,
        /// so sorting by ticket gives the readers in arrival order when a snapshot needs it.
        var readers: [Int: LockHolder] = [:]
        var queue: Deque<Waiter> = []
        var waitingWriters = 0
        var nextTicket = 0

        var mode: LockMode {
            if let writer { return .write(writer.id) }
            return readers.isEmpty ? .idle : .read(count: readers.count)
        }

        mutating func takeTicket() -> Int {
            nextTicket += 1
            return nextTicket
        }
    }

    /// How a release or withdrawal hands the lock on.
    private enum Handover {
        /// A writer just left: all waiting readers form the next phase.
        case afterWriter
        /// A reader left or a waiter withdrew: readers at the queue's front may join the current
        /// read phase; an idle lock goes to the oldest waiter.
        case other
    }

    private let state = Protected(State())
    private let onChange: @Sendable (LockEvent) -> Void

    init(onChange: @escaping @Sendable (LockEvent) -> Void) {
        self.onChange = onChange
    }

    /// Waits until `request` holds the lock and returns the ticket to release it with.
    /// `onEnqueued` runs (inside the lock) if the request has to wait.
    /// Throws `CancellationError` if the request is withdrawn before it gets in.
    func acquire(_ request: LockRequest, onEnqueued: () -> Void = {}) async throws -> Int {
        if let ticket = try state.withLock({ try enterAtOnce(request, &$0) }) { return ticket }
        var ticket = 0
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            ticket = state.withLock { state in
                if let ticket = try? enterAtOnce(request, &state) {
                    continuation.resume()
                    return ticket
                }
                return enqueue(request, continuation, onEnqueued, &state)
            }
        }
        return ticket
    }

    /// Leaves the lock taken under `ticket` and hands it on.
    func release(_ ticket: Int, holder: LockHolder) {
        let admitted = state.withLock { state -> [Waiter] in
            let handover: Handover
            if holder.access == .write {
                state.writer = nil
                handover = .afterWriter
            } else {
                state.readers[ticket] = nil
                handover = .other
            }
            onChange(LockEvent(holder: holder, change: .released, mode: state.mode, waiting: state.queue.count))
            return admit(handover, &state)
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Withdraws a request: if it waits, it leaves the queue at once and its `acquire` throws
    /// `CancellationError`; if it has not arrived yet, its `acquire` will throw; if it already
    /// holds the lock, nothing happens (the holder releases as usual).
    func withdraw(_ request: LockRequest) {
        guard let ticket = request.markWithdrawn() else { return }
        var resumed: [Waiter] = []
        let withdrawn: Waiter? = state.withLock { state in
            guard let index = state.queue.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            let waiter = state.queue.remove(at: index)
            if waiter.access == .write { state.waitingWriters -= 1 }
            onChange(LockEvent(holder: waiter.request.holder, change: .withdrawn, mode: state.mode, waiting: state.queue.count))
            resumed = admit(.other, &state)
            return waiter
        }
        withdrawn?.continuation.resume(throwing: CancellationError())
        for waiter in resumed { waiter.continuation.resume() }
    }

    /// The lock right now, for observers that arrive late.
    func snapshot() -> LockSnapshot {
        state.withLock { state in
            let holders = state.writer.map { [$0] } ?? state.readers.sorted { $0.key < $1.key }.map(\.value)
            return LockSnapshot(mode: state.mode, holders: holders, queue: state.queue.map(\.request.holder))
        }
    }

    // MARK: - Inside the mutex

    /// Admits `request` if the rules allow it without waiting; nil if it must queue.
    private func enterAtOnce(_ request: LockRequest, _ state: inout State) throws -> Int? {
        let canEnter = switch request.holder.access {
        case .read: state.writer == nil && state.waitingWriters == 0
        case .write: state.writer == nil && state.readers.isEmpty && state.queue.isEmpty
        }
        guard canEnter else { return nil }
        let withdrawn = request.phase.withLock { phase -> Bool in
            if case .withdrawn = phase { return true }
            return false
        }
        if withdrawn { throw CancellationError() }
        let ticket = state.takeTicket()
        hold(request.holder, ticket: ticket, &state)
        return ticket
    }

    private func enqueue(
        _ request: LockRequest, _ continuation: CheckedContinuation<Void, any Error>,
        _ onEnqueued: () -> Void, _ state: inout State
    ) -> Int {
        let ticket = state.takeTicket()
        let accepted = request.phase.withLock { phase -> Bool in
            if case .withdrawn = phase { return false }
            phase = .waiting(ticket: ticket)
            return true
        }
        guard accepted else {
            continuation.resume(throwing: CancellationError())
            return ticket
        }
        state.queue.append(Waiter(ticket: ticket, request: request, continuation: continuation))
        if request.holder.access == .write { state.waitingWriters += 1 }
        onEnqueued()
        onChange(LockEvent(holder: request.holder, change: .enqueued, mode: state.mode, waiting: state.queue.count))
        return ticket
    }

    private func hold(_ holder: LockHolder, ticket: Int, _ state: inout State) {
        switch holder.access {
        case .read:
            state.readers[ticket] = holder
        case .write:
            state.writer = holder
        }
        onChange(LockEvent(holder: holder, change: .admitted, mode: state.mode, waiting: state.queue.count))
    }

    /// Moves waiters into the lock according to the phase-fair rules; returns them to resume.
    private func admit(_ handover: Handover, _ state: inout State) -> [Waiter] {
        guard state.writer == nil, !state.queue.isEmpty else { return [] }
        var admitted: [Waiter] = []
        if handover == .afterWriter, state.queue.count > state.waitingWriters {
            // A write phase ended: every waiting reader enters, wherever it stands in the queue.
            admitted = state.queue.filter { $0.access == .read }
            state.queue.removeAll { $0.access == .read }
        } else {
            // Readers at the front arrived before any waiting writer: they join the read phase.
            while let first = state.queue.first, first.access == .read {
                admitted.append(state.queue.removeFirst())
            }
            if admitted.isEmpty, state.readers.isEmpty, let first = state.queue.first, first.access == .write {
                admitted.append(state.queue.removeFirst())
                state.waitingWriters -= 1
            }
        }
        for waiter in admitted {
            waiter.request.phase.withLock { $0 = .idle }
            hold(waiter.request.holder, ticket: waiter.ticket, &state)
        }
        return admitted
    }
}
