import TaskFlow

/// One line of the event log.
package struct LogEntry: Sendable, Hashable {
    /// When it happened, since the dashboard started.
    package let time: Duration
    /// Its level.
    package let level: LogLevel
    /// The text, without the time stamp.
    package let text: String
    /// The flow or job the line is about, if one: Enter on the line selects it.
    package var subject: LogSubject?
}

/// What a log line is about.
package enum LogSubject: Sendable, Hashable {
    /// A flow (its events, its lock changes).
    case flow(FlowID)
    /// A job of an in-process queue.
    case job(JobID)
}

/// The event log: the most recent ``capacity`` lines, oldest first.
package struct EventLog: Sendable, Hashable {
    /// How many lines are kept for scrollback.
    package let capacity: Int
    /// The kept lines, oldest first.
    package private(set) var entries: [LogEntry] = []
    /// How many lines were ever appended: one past the number of the newest line. Lines are
    /// numbered from 0 for good, so a scrolled-back view can stay on the same lines while new
    /// ones arrive and old ones are dropped.
    package private(set) var endNumber = 0

    /// An empty log keeping up to `capacity` lines.
    package init(capacity: Int = 1000) {
        precondition(capacity > 0, "a log must keep at least one line")
        self.capacity = capacity
    }

    /// Appends a line, dropping the oldest ones past ``capacity``.
    mutating func append(_ entry: LogEntry) {
        entries.append(entry)
        endNumber += 1
        // Drop in batches so that a full log does not shift its array on every line.
        if entries.count > capacity + capacity / 4 {
            entries.removeFirst(entries.count - capacity)
        }
    }

    /// The lines in view: `count` lines ending `scroll` lines above the newest.
    package func window(count: Int, scroll: Int) -> ArraySlice<LogEntry> {
        let visible = entries.suffix(capacity)
        let end = max(visible.endIndex - max(scroll, 0), visible.startIndex)
        let start = max(end - max(count, 0), visible.startIndex)
        return visible[start..<end]
    }

    /// The scroll offset (lines above the newest) that ends a window just before line `number`.
    package func scroll(endingBefore number: Int) -> Int {
        max(endNumber - number, 0)
    }

    /// The number of the line at `index` in ``entries``.
    package func number(ofIndex index: Int) -> Int {
        endNumber - entries.count + index
    }

    /// The largest useful scroll offset for a window of `count` lines.
    package func maxScroll(count: Int) -> Int {
        max(min(entries.count, capacity) - count, 0)
    }
}
