/// Splits bytes into lines (`\n`, an optional `\r` before it dropped), holding at most `limit`
/// bytes of an unfinished line: longer input is an error, never buffered without bound. The
/// protocol's one line reader, for sockets (fed a read at a time) and recordings.
package struct LineFramer: Sendable {
    /// The longest line accepted by default: 1 MiB.
    package static let defaultLimit = 1 << 20

    /// A line grew past the limit.
    package struct LineTooLong: Error, CustomStringConvertible, Sendable {
        /// The limit it passed.
        package let limit: Int
        /// "line longer than 1048576 bytes".
        package var description: String { "line longer than \(limit) bytes" }
    }

    /// The longest line accepted, in bytes, without its end.
    package let limit: Int
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How far past `start` is known to hold no newline.
    private var scanned = 0

    /// A framer accepting lines of up to `limit` bytes.
    package init(limit: Int = LineFramer.defaultLimit) { self.limit = limit }

    /// Adds bytes that were read. Call ``nextLine()`` until it returns nil before adding more:
    /// that is where a line over the limit is found.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            // Compact now and then, so that taking lines off the front stays linear.
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, without its end; nil when none is complete yet. Throws once the
    /// unfinished line (or a complete one) is longer than the limit: the caller then drops the
    /// source.
    package mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        let from = start + scanned
        guard let end = buffer[from...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count - start
            if scanned > limit { throw LineTooLong(limit: limit) }
            return nil
        }
        var lineEnd = end
        if lineEnd > start, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        guard lineEnd - start <= limit else { throw LineTooLong(limit: limit) }
        let line = Array(buffer[start..<lineEnd])
        start = end + 1
        scanned = 0
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        return line
    }

    /// Bytes held for a line not yet complete.
    package var pendingCount: Int { buffer.count - start }
}
