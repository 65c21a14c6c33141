import DashboardKit
import Foundation
import Glibc
import Testing

/// ``OutputWriter/send(_:)`` in-process: whole text or a typed error, never a trap.
@Suite struct OutputWriterTests {
    /// A full disk; a descriptor not open for writing, which is what a closed stdout becomes.
    @Test(arguments: [
        ("/dev/full", O_WRONLY, ENOSPC, "cannot write to standard output: No space left on device"),
        ("/dev/null", O_RDONLY, EBADF, "cannot write to standard output: Bad file descriptor"),
    ])
    func aFailedWriteIsAnErrorNamingTheDescriptorAndTheReason(path: String, flags: Int32, code: Int32, message: String) throws {
        let descriptor = open(path, flags)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = OutputWriter(descriptor: descriptor, name: "standard output", onFailure: .discard)
        let error = WriteError(descriptorName: "standard output", code: code)
        #expect(throws: error) { try writer.send("event\n") }
        #expect("\(error)" == message)
        // Under the discard policy the text is dropped and the program goes on: reaching the
        // end of the test is the check.
        writer.write("lost\n")
    }

    /// A non-blocking pipe fills up long before 1 MB: the writer waits for room (EAGAIN) and
    /// resumes after partial writes, so the reader gets every byte in order.
    @Test func aFullNonBlockingPipeGetsEveryByte() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let text = String((0..<1_000_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let reader = Task.detached {
            defer { close(readEnd) }
            return FileHandle(fileDescriptor: readEnd).readDataToEndOfFile()
        }
        try OutputWriter(descriptor: writeEnd, name: "a pipe", onFailure: .discard).send(text)
        close(writeEnd)
        let received = await reader.value
        #expect(received.count == text.utf8.count)
        #expect(received == Data(text.utf8))
    }
}
