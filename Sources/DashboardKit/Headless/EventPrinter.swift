import Foundation
import TOMLSource
import TaskFlow

/// Headless output: no screen, one line per engine event and per job queue event (progress
/// aside in text) — readable text, or JSON Lines with
/// `json`. Used for `--headless`, `--json`, and whenever stdout is not a terminal. It sits
/// beside the backends, not among them: it draws nothing and reads no keys, it prints the
/// events the session ingests (the loop then runs without a backend).
@MainActor
package final class EventPrinter {
    /// The line format.
    package enum Format: Sendable {
        /// Time stamp and a sentence, like the event log.
        case text
        /// JSON Lines: one object per line, an ``EventRecord``, a ``JobEventRecord`` or a
        /// ``ResyncRecord``.
        case json
    }

    private let format: Format
    private let write: (String) -> Void
    private let flushPending: () -> Void
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A printer in `format`, writing each line (without newline) through `write` at once.
    package convenience init(format: Format, write: @escaping (String) -> Void) {
        self.init(format: format, write: write, flush: {})
    }

    /// A printer on standard output: line by line on a terminal, where a person reads them as
    /// they come; to a pipe or a file, gathered in a ``LineBuffer`` and written at least every
    /// frame interval (``flush()`` writes the rest). Output that cannot be written ends the
    /// program (see ``OutputWriter``).
    package convenience init(format: Format) {
        guard isatty(STDOUT_FILENO) != 1 else {
            self.init(format: format) { OutputWriter.standardOutput.write($0 + "\n") }
            return
        }
        let buffer = LineBuffer()
        self.init(format: format, write: buffer.append, flush: buffer.flush)
    }

    /// A printer in `format`, writing each line (without newline) through `write`; `flush`
    /// writes what `write` may hold back.
    package init(format: Format, write: @escaping (String) -> Void, flush: @escaping () -> Void) {
        self.format = format
        self.write = write
        self.flushPending = flush
    }

    /// Writes every line still held back; the launcher calls it once the loop ended.
    package func flush() {
        flushPending()
    }

    /// Prints every event `session` ingests from now on. The session keeps the printer alive.
    package func attach(to session: DashboardSession) {
        session.eventObserver = { [weak session] event, time in
            guard let session else { return }
            if let line = self.line(for: event, at: time, board: session.model.live) { self.write(line) }
        }
        session.jobEventObserver = { [weak session] event, time in
            guard let board = session?.model.tab(QueuesTab.self)?.board else { return }
            if let line = self.line(for: event, at: time, board: board) { self.write(line) }
        }
        session.resyncObserver = { missed, ended, time in
            if let line = self.line(forResyncMissing: missed, ended: ended, at: time) { self.write(line) }
        }
    }

    /// The line for a resync (an attached viewer fell behind and took the program's snapshot
    /// again): the warning the log shows, or a ``ResyncRecord``. A headless viewer must learn
    /// that the lines before it are not the whole story.
    func line(forResyncMissing missed: Int, ended: [FlowID], at time: Duration) -> String? {
        switch format {
        case .json:
            return json(ResyncRecord(missed: missed, ended: ended, at: time))
        case .text:
            return text(LogLine(text: DashboardModel.resyncLine(missed: missed, ended: ended.count), level: .warning), at: time)
        }
    }

    /// The line for one job queue event, or nil when the text format skips it.
    func line(for event: JobEvent, at time: Duration, board: QueueBoard) -> String? {
        switch format {
        case .json:
            let record = JobEventRecord(event, at: time, row: event.jobID.flatMap { board.jobs[$0] })
            return json(record)
        case .text:
            return board.line(for: event).map { text($0, at: time) }
        }
    }

    /// A record as one line of JSON; nil if it cannot be encoded (a non-finite number).
    private func json(_ record: some Encodable) -> String? {
        (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A text line: the time right-aligned, then the sentence with its control characters
    /// escaped (titles and messages come from the user's files: a control character in them
    /// must not reach the terminal or break the one-line-per-event shape).
    private func text(_ line: LogLine, at time: Duration) -> String {
        let stamp = time.compact
        return String(repeating: " ", count: max(7 - stamp.count, 0)) + stamp + "  " + line.text.escapingControlCharacters
    }

    /// The line for one event, or nil when the text format skips it.
    func line(for event: FlowEvent, at time: Duration, board: FlowBoard) -> String? {
        let flowTitle = { (id: FlowID) in board.flow(id)?.info.title }
        let stepTitle = { (id: FlowID, step: StepID) in board.flow(id)?.step(step)?.info.title }
        switch format {
        case .json:
            let record = EventRecord(event, at: time, flowTitles: flowTitle, stepTitles: stepTitle)
            return json(record)
        case .text:
            return EventText.line(for: event, flowTitle: flowTitle, stepTitle: stepTitle).map { text($0, at: time) }
        }
    }
}
