import Dispatch

/// Headless lines on their way to a pipe or a file, written together: a line per `write` cost
/// nine system calls per one-step flow, and a reader of a pipe gains nothing from seeing a line
/// a few milliseconds sooner. Lines wait at most ``interval`` (the dashboard's frame interval),
/// or until ``limit`` bytes are gathered, and ``flush()`` writes what waits (the launcher calls
/// it when the loop ends, whatever ended it). Main-actor bound, like the printer it serves.
@MainActor
package final class LineBuffer {
    /// Where the lines go.
    private let writer: OutputWriter
    /// The longest a line waits.
    package let interval: Duration
    /// How many bytes wait at most before they are written at once.
    package static let limit = 64 * 1024
    private var pending: [UInt8] = []
    private var flushScheduled = false

    /// Lines for `writer`, each written within `interval`.
    package init(writer: OutputWriter = .standardOutput, interval: Duration = .milliseconds(33)) {
        self.writer = writer
        self.interval = interval
    }

    /// Adds `line` and a newline; writes everything once ``limit`` is reached, else makes sure a
    /// write comes within ``interval``.
    package func append(_ line: String) {
        pending.append(contentsOf: line.utf8)
        pending.append(UInt8(ascii: "\n"))
        guard pending.count < Self.limit else { return flush() }
        guard !flushScheduled else { return }
        flushScheduled = true
        DispatchQueue.main.asyncAfter(deadline: .now() + interval.seconds) { [weak self] in
            // The main queue's work runs on the main thread, the main actor's.
            MainActor.assumeIsolated { self?.flush() }
        }
    }

    /// Writes what waits, now.
    package func flush() {
        flushScheduled = false
        guard !pending.isEmpty else { return }
        writer.write(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
    }
}
