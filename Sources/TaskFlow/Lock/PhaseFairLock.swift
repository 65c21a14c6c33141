import DequeModule
import TaskFlowSupport

/// The manager's asynchronous read/write lock, phase-fair (Brandenburg & Anderson):
///
/// - A reader enters at once unless a writer holds the lock or waits for it; then it queues.
/// - A writer enters at once only when nobody holds the lock and nobody waits.
/// - When a writer leaves, **every** waiting reader enters together (a read phase), even those
///   that arrived behind other waiting writers; if none wait, the oldest writer enters.
/// - When the last reader leaves, the oldest waiting writer enters.
///
/// So a writer waits at most for one read phase, and a reader at most for one write phase:
/// neither side starves. Nobody blocks a thread: a waiter is either a task suspended on a
/// continuation (``acquire(_:)``) or a flow without a task yet (``enter(_:onEnqueued:)``),
/// which whoever admits it starts (the ``AdmittedFlow``s ``release(_:holder:)`` returns).
/// Every change is reported through `onChange`, called inside the lock so changes are
/// reported in the order they happened.
final class PhaseFairLock: Sendable {
    private struct Waiter {
        let ticket: Int
        /// The flow whose ``FlowRecord/lockRequest`` waits.
        let flow: FlowRecord
        let wake: Wake
    }

    /// How a waiter learns it got in (or was withdrawn).
    private enum Wake {
        /// A task suspended in ``acquire(_:)``: resumed.
        case resume(CheckedContinuation<Void, any Error>)
        /// A flow without a task: handed, with its ticket, to whoever admitted it.
        case start
    }

    /// How ``enter(_:onEnqueued:)`` went.
    enum Entry {
        /// In the lock at once, under this ticket: the caller runs the flow.
        case admitted(ticket: Int)
        /// In the queue: whoever admits it runs it.
        case queued
        /// Withdrawn before it got in: the caller ends it as cancelled.
        case withdrawn
    }

    private struct State {
        var writer: LockHolder?
        /// Readers by ticket, so a release finds its entry in O(1) (``NumberedSlots``: tickets
        /// grow with arrival); in ticket order, they are in arrival order.
        var readers = NumberedSlots<LockHolder>()
        /// Waiting readers and writers in two queues, so that handing the lock on touches only
        /// the waiters it admits; tickets interleave them back into one arrival order.
        var waitingReaders: Deque<Waiter> = []
        var waitingWriters: Deque<Waiter> = []
        var nextTicket = 0

        var mode: LockMode {
            if let writer { return .write(writer.id) }
            return readers.isEmpty ? .idle : .read(count: readers.count)
        }

        var waiting: Int { waitingReaders.count + waitingWriters.count }

        mutating func takeTicket() -> Int {
            nextTicket += 1
            return nextTicket
        }
    }

    /// How a release or withdrawal hands the lock on.
    private enum Handover {
        /// A writer just left: all waiting readers form the next phase.
        case afterWriter
        /// A reader left or a waiter withdrew: readers that arrived before every waiting writer
        /// may join the current read phase; an idle lock goes to the oldest writer.
        case other
    }

    private let state = Protected(State())
    /// Given each change as a closure that builds its event, so that an observer that does
    /// not listen right now never pays for it (the holder's info and the lock's mode, copied for
    /// every admission and release).
    private let onChange: @Sendable (() -> LockEvent) -> Void

    init(onChange: @escaping @Sendable (() -> LockEvent) -> Void) {
        self.onChange = onChange
    }

    /// Reports a change through ``onChange``; `event` is built only if it is asked for.
    private func report(_ event: @autoclosure () -> LockEvent) {
        onChange(event)
    }

    /// Waits until `flow`'s request holds the lock and returns the ticket to release it with.
    /// Throws `CancellationError` if the request is withdrawn before it gets in.
    func acquire(_ flow: FlowRecord) async throws -> Int {
        if let ticket = try state.withLock({ try enterAtOnce(flow, &$0) }) { return ticket }
        var ticket = 0
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // Nil while it waits; else how it ended at once, told outside the lock.
            let ended = state.withLock { state -> Result<Void, any Error>? in
                if let admitted = try? enterAtOnce(flow, &state) {
                    ticket = admitted
                    return .success(())
                }
                ticket = state.takeTicket()
                guard enqueue(Waiter(ticket: ticket, flow: flow, wake: .resume(continuation)), &state) else {
                    return .failure(CancellationError())
                }
                return nil
            }
            if let ended { continuation.resume(with: ended) }
        }
        return ticket
    }

    /// Lets `flow` in at once if the rules allow it, else queues it without a task: whoever
    /// admits it later gets it back, with its ticket, to run (``release(_:holder:)``,
    /// ``withdraw(_:)``). `onEnqueued` runs (inside the lock) if it is queued.
    func enter(_ flow: FlowRecord, onEnqueued: () -> Void) -> Entry {
        state.withLock { state in
            do {
                if let ticket = try enterAtOnce(flow, &state) { return .admitted(ticket: ticket) }
            } catch {
                return .withdrawn
            }
            guard enqueue(Waiter(ticket: state.takeTicket(), flow: flow, wake: .start), &state) else {
                return .withdrawn
            }
            onEnqueued()
            return .queued
        }
    }

    /// Leaves the lock taken under `ticket` and hands it on: tasks it admits are resumed; flows
    /// it admits without a task are returned, for the caller to run.
    func release(_ ticket: Int, holder: LockHolder) -> [AdmittedFlow] {
        let admitted = state.withLock { state -> [Waiter] in
            let handover: Handover
            switch holder.access {
            case .write:
                state.writer = nil
                handover = .afterWriter
            case .read:
                state.readers[ticket] = nil
                handover = .other
            }
            report(LockEvent(holder: holder, change: .released, mode: state.mode, waiting: state.waiting))
            return admit(handover, &state)
        }
        return Self.wake(admitted)
    }

    /// Withdraws `flow`'s request: if it waits, it leaves the queue at once and its `acquire` throws
    /// `CancellationError` (a queued flow is returned as `withdrawn`, for the caller to end);
    /// if it has not arrived yet, its `acquire` (or `enter`) will refuse it; if it already holds
    /// the lock, nothing happens (the holder releases as usual). Returns too the flows without a
    /// task its leaving admitted, for the caller to run.
    func withdraw(_ flow: FlowRecord) -> (withdrawn: FlowRecord?, admitted: [AdmittedFlow]) {
        guard let ticket = flow.lockRequest.markWithdrawn() else { return (nil, []) }
        let (withdrawn, admitted) = state.withLock { state -> (Waiter?, [Waiter]) in
            let waiter = Self.remove(ticket, from: &state.waitingReaders) ?? Self.remove(ticket, from: &state.waitingWriters)
            guard let waiter else { return (nil, []) }
            report(LockEvent(holder: waiter.flow.info, change: .withdrawn, mode: state.mode, waiting: state.waiting))
            return (waiter, admit(.other, &state))
        }
        // Not in the queue (arrived neither yet nor any more): nothing left, nobody admitted.
        guard let withdrawn else { return (nil, []) }
        switch withdrawn.wake {
        case .resume(let continuation):
            continuation.resume(throwing: CancellationError())
            return (nil, Self.wake(admitted))
        case .start: return (flow, Self.wake(admitted))
        }
    }

    /// Resumes the admitted tasks; returns the admitted flows without one, with their tickets.
    private static func wake(_ admitted: [Waiter]) -> [AdmittedFlow] {
        // Most releases admit nobody.
        guard !admitted.isEmpty else { return [] }
        var flows: [AdmittedFlow] = []
        for waiter in admitted {
            switch waiter.wake {
            case .resume(let continuation): continuation.resume()
            case .start: flows.append(AdmittedFlow(record: waiter.flow, ticket: waiter.ticket))
            }
        }
        return flows
    }

    /// The lock right now, for observers that arrive late.
    func snapshot() -> LockSnapshot {
        state.withLock { state in
            let holders = state.writer.map { [$0] } ?? state.readers.valuesInKeyOrder
            let queue = (state.waitingReaders + state.waitingWriters).sorted { $0.ticket < $1.ticket }
            return LockSnapshot(mode: state.mode, holders: holders, queue: queue.map(\.flow.info))
        }
    }

    // MARK: - Inside the mutex

    /// Admits `flow`'s request if the rules allow it without waiting; nil if it must queue.
    private func enterAtOnce(_ flow: FlowRecord, _ state: inout State) throws -> Int? {
        let canEnter = switch flow.info.access {
        case .read: state.writer == nil && state.waitingWriters.isEmpty
        case .write: state.writer == nil && state.readers.isEmpty && state.waiting == 0
        }
        guard canEnter else { return nil }
        if flow.lockRequest.isWithdrawn { throw CancellationError() }
        let ticket = state.takeTicket()
        hold(flow.info, ticket: ticket, &state)
        return ticket
    }

    /// Queues a waiter unless its request was withdrawn meanwhile; returns whether it was
    /// queued (the caller tells a refused one, outside the lock).
    private func enqueue(_ waiter: Waiter, _ state: inout State) -> Bool {
        guard waiter.flow.lockRequest.markWaiting(ticket: waiter.ticket) else { return false }
        switch waiter.flow.info.access {
        case .read: state.waitingReaders.append(waiter)
        case .write: state.waitingWriters.append(waiter)
        }
        report(LockEvent(holder: waiter.flow.info, change: .enqueued, mode: state.mode, waiting: state.waiting))
        return true
    }

    private func hold(_ holder: LockHolder, ticket: Int, _ state: inout State) {
        switch holder.access {
        case .read: state.readers[ticket] = holder
        case .write: state.writer = holder
        }
        report(LockEvent(holder: holder, change: .admitted, mode: state.mode, waiting: state.waiting))
    }

    /// Moves waiters into the lock according to the phase-fair rules; returns them to resume.
    private func admit(_ handover: Handover, _ state: inout State) -> [Waiter] {
        // Nobody waiting is the common case, and the rules below read the queues' first waiters
        // (copies, each with its flow retained) before they find that out.
        guard state.writer == nil, state.waiting > 0 else { return [] }
        var admitted: [Waiter] = []
        if handover == .afterWriter, !state.waitingReaders.isEmpty {
            // A write phase ended: every waiting reader enters, wherever it stands in the queue.
            admitted = Array(state.waitingReaders)
            state.waitingReaders = []
        } else {
            // Readers that arrived before every waiting writer join the current read phase.
            let firstWriter = state.waitingWriters.first?.ticket ?? .max
            while let reader = state.waitingReaders.first, reader.ticket < firstWriter {
                admitted.append(state.waitingReaders.removeFirst())
            }
            if admitted.isEmpty, state.readers.isEmpty, let writer = state.waitingWriters.popFirst() {
                admitted.append(writer)
            }
        }
        for waiter in admitted {
            waiter.flow.lockRequest.markAdmitted()
            hold(waiter.flow.info, ticket: waiter.ticket, &state)
        }
        return admitted
    }

    private static func remove(_ ticket: Int, from queue: inout Deque<Waiter>) -> Waiter? {
        guard let index = queue.firstIndex(where: { $0.ticket == ticket }) else { return nil }
        return queue.remove(at: index)
    }
}
