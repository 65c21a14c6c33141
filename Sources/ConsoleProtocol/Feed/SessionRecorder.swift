import Foundation
import TaskFlowSupport

/// Writes a feed to a file as the protocol's JSON lines (the program's hello, a snapshot, then
/// every event), for `--record` and `taskflow replay`. The file is created owner-only (0600):
/// a session shows what the program does.
///
/// Recording never slows the program: messages are encoded and written on a queue of the
/// recorder's own, and at most `capacity` wait there; beyond that, messages are dropped and
/// counted (``close()`` reports them).
package final class SessionRecorder: Sendable {
    /// The file written.
    package let path: String
    private let handle: FileHandle
    private let writer = DispatchQueue(label: "taskflow.session-recorder")
    private let capacity: Int
    private let state = Protected(State())
    private let subscription = Protected<Task<Void, Never>?>(nil)

    private struct State {
        var waiting = 0
        var dropped = 0
        var closed = false
        var writeError: String?
    }

    /// A recorder writing to `path` (created 0600, or emptied), keeping at most `capacity`
    /// messages waiting to be written.
    package init(path: String, capacity: Int = 10_000) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RecordingError(path: path, reason: String(cString: strerror(errno))) }
        // An existing file keeps its mode through O_CREAT: make it owner-only too.
        fchmod(fd, 0o600)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        self.path = path
        self.capacity = capacity
    }

    /// Records `feed`: its hello and a snapshot now, then its events until ``close()``.
    package func record(_ feed: ConsoleFeed) {
        let events = feed.subscribe()
        record(.hello(feed.hello))
        record(feed.snapshot())
        let task = Task { await events.run { [weak self] in self?.record($0) } }
        subscription.withLock { $0 = task }
    }

    /// Queues `message` to be written, or counts it dropped when `capacity` messages wait.
    package func record(_ message: ServerMessage) {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            guard state.waiting < capacity else {
                state.dropped += 1
                return false
            }
            state.waiting += 1
            return true
        }
        guard accepted else { return }
        writer.async { [self] in
            write(message)
            state.withLock { $0.waiting -= 1 }
        }
    }

    /// Stops recording, writes what waits and closes the file. Returns what the recording lost,
    /// one line per problem (events dropped because the disk was slower than the program, a
    /// write that failed), empty when it is whole. A library says nothing itself: the caller
    /// tells its user (the dashboard on standard error, a console server through its logger).
    @discardableResult
    package func close() -> [String] {
        subscription.withLock { $0 }?.cancel()
        state.withLock { $0.closed = true }
        writer.sync {}
        try? handle.close()
        let (dropped, failure) = state.withLock { ($0.dropped, $0.writeError) }
        var problems: [String] = []
        if dropped > 0 { problems.append("recording \(path): \(dropped) events dropped (the disk was slower than the program)") }
        if let failure { problems.append("recording \(path): \(failure)") }
        return problems
    }

    private func write(_ message: ServerMessage) {
        guard state.withLock({ $0.writeError == nil }) else { return }
        do {
            try handle.write(contentsOf: MessageCoding.line(message))
        } catch {
            state.withLock { $0.writeError = "writing failed: \(error)" }
        }
    }
}

/// A recording file could not be created.
package struct RecordingError: Error, CustomStringConvertible, Sendable {
    /// The file.
    package let path: String
    /// Why, from the system.
    package let reason: String

    /// "cannot record to run.jsonl: Permission denied".
    package var description: String { "cannot record to \(path): \(reason)" }
}
