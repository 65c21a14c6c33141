@testable import DashboardKit
import Foundation
import TaskFlowTestSupport
import Testing

/// Headless lines to a pipe or a file are written together: nothing reaches the reader line by
/// line, all of it at a flush or once the buffer is full, in order.
@Suite("Headless: lines written together")
@MainActor
struct LineBufferTests {
    @Test func linesWaitForAFlushThenArriveTogetherInOrder() throws {
        let file = try WrittenFile()
        defer { file.close() }
        let buffer = LineBuffer(writer: file.writer, interval: .seconds(3600))
        buffer.append("#1 \"one\" queued")
        buffer.append("#1 \"one\" completed")
        #expect(file.available() == "", "a line alone is not a write")
        buffer.flush()
        #expect(file.available() == "#1 \"one\" queued\n#1 \"one\" completed\n")
        buffer.flush()
        #expect(file.available() == "", "nothing twice")
    }

    @Test func aLineIsWrittenWithinTheIntervalWithoutAFlush() async throws {
        let file = try WrittenFile()
        defer { file.close() }
        let buffer = LineBuffer(writer: file.writer, interval: .milliseconds(1))
        buffer.append("#1 \"one\" queued")
        buffer.append("#1 \"one\" completed")
        var seen = ""
        #expect(await eventually { seen += file.available(); return seen.hasSuffix("completed\n") })
        #expect(seen == "#1 \"one\" queued\n#1 \"one\" completed\n", "both lines, once, in order, by the timer alone")
    }

    @Test func aFullBufferIsWrittenAtOnce() throws {
        let file = try WrittenFile()
        defer { file.close() }
        let buffer = LineBuffer(writer: file.writer, interval: .seconds(3600))
        let line = String(repeating: "x", count: 1023)
        for _ in 0..<(LineBuffer.limit / 1024 - 1) { buffer.append(line) }
        #expect(file.available() == "")
        buffer.append(line)
        #expect(file.available().utf8.count == LineBuffer.limit, "written when the limit is reached, without a flush")
    }
}

/// A file standing for the pipe: `available()` is what was written to it since the last call.
private struct WrittenFile {
    let readEnd: Int32
    let writer: OutputWriter

    init() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "taskflow-lines-\(UUID().uuidString)").path
        let writeEnd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        readEnd = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        guard writeEnd >= 0, readEnd >= 0 else { throw POSIXError(.ENOENT) }
        writer = OutputWriter(descriptor: writeEnd, name: "a file", onFailure: .discard)
    }

    func available() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(readEnd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() {
        Glibc.close(readEnd)
        Glibc.close(writer.descriptor)
    }
}
