import Synchronization

/// The raw baseline for the manager's lock: the smallest honest asynchronous reader/writer lock
/// one would write with `Mutex` and continuations, and nothing else — no flow records, events,
/// tickets, withdrawal or snapshots.
///
/// It follows the same phase-fair rules as TaskFlow's lock, so a throughput comparison measures
/// the cost of the machinery and not a different admission policy:
/// - a reader enters at once unless a writer holds the lock or waits for it;
/// - a writer enters at once only when nobody holds the lock and nobody waits;
/// - when a writer leaves, every waiting reader enters together; otherwise the oldest writer;
/// - when the last reader leaves, the oldest waiting writer enters.
///
/// Waiters suspend on `CheckedContinuation`s (the core uses them too); nobody blocks a thread.
final class RawReadWriteLock: Sendable {
    private struct State {
        var readers = 0
        var writing = false
        var waitingReaders: [CheckedContinuation<Void, Never>] = []
        /// Oldest first. `removeFirst()` is O(n), but at most one entry per contending task.
        var waitingWriters: [CheckedContinuation<Void, Never>] = []

        var readerMayEnter: Bool { !writing && waitingWriters.isEmpty }
        var writerMayEnter: Bool { !writing && readers == 0 && waitingWriters.isEmpty && waitingReaders.isEmpty }
    }

    private let state = Mutex(State())

    func lockRead() async {
        let entered = state.withLock { state in
            guard state.readerMayEnter else { return false }
            state.readers += 1
            return true
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enterNow = state.withLock { state in
                guard state.readerMayEnter else {
                    state.waitingReaders.append(continuation)
                    return false
                }
                state.readers += 1
                return true
            }
            if enterNow { continuation.resume() }
        }
    }

    func unlockRead() {
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.readers -= 1
            guard state.readers == 0, !state.waitingWriters.isEmpty else { return nil }
            state.writing = true
            return state.waitingWriters.removeFirst()
        }
        writer?.resume()
    }

    func lockWrite() async {
        let entered = state.withLock { state in
            guard state.writerMayEnter else { return false }
            state.writing = true
            return true
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enterNow = state.withLock { state in
                guard state.writerMayEnter else {
                    state.waitingWriters.append(continuation)
                    return false
                }
                state.writing = true
                return true
            }
            if enterNow { continuation.resume() }
        }
    }

    func unlockWrite() {
        let (readers, writer) = state.withLock { state -> ([CheckedContinuation<Void, Never>], CheckedContinuation<Void, Never>?) in
            state.writing = false
            if !state.waitingReaders.isEmpty {
                // A write phase ended: every waiting reader enters together.
                let readers = state.waitingReaders
                state.waitingReaders = []
                state.readers = readers.count
                return (readers, nil)
            }
            guard !state.waitingWriters.isEmpty else { return ([], nil) }
            state.writing = true
            return ([], state.waitingWriters.removeFirst())
        }
        for reader in readers { reader.resume() }
        writer?.resume()
    }
}
