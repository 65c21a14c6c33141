import ConsoleProtocol
import Testing

/// The line reader: lines split wherever reads end, and input past the limit is refused.
@Suite struct LineFramerTests {
    @Test func splitsLinesAcrossReads() throws {
        var framer = LineFramer(limit: 16)
        var lines: [String] = []
        for chunk in ["ab", "c\nde", "f\r\n\ng", "h\n"] {
            framer.append(Array(chunk.utf8))
            while let line = try framer.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        }
        #expect(lines == ["abc", "def", "", "gh"])
        #expect(framer.pendingCount == 0)
    }

    @Test func anUnfinishedLinePastTheLimitIsAnErrorNotABuffer() throws {
        var framer = LineFramer(limit: 1024)
        var refusedAfter = 0
        do {
            for _ in 0..<100_000 {
                framer.append(repeatElement(UInt8(ascii: "x"), count: 100))
                refusedAfter += 100
                _ = try framer.nextLine()
            }
        } catch {
            #expect(error.description == "line longer than 1024 bytes")
        }
        #expect(refusedAfter <= 1024 + 100, "refused as soon as the line passed the limit")
    }

    @Test func aCompleteLineOverTheLimitIsAnErrorToo() {
        var framer = LineFramer(limit: 4)
        framer.append(Array("12345\n".utf8))
        #expect(throws: LineFramer.LineTooLong.self) { try framer.nextLine() }
    }
}
