import Foundation
import Glibc
import TaskFlowDashboard
import Testing

/// ``OutputWriter/send(_:)`` in-process: whole text or a typed error, never a trap.
@Suite struct OutputWriterTests {
    @Test func aFullDeviceIsAnErrorNamingTheDescriptorAndTheReason() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = OutputWriter(descriptor: descriptor, name: "standard output", onFailure: .discard)
        #expect(throws: WriteError(descriptorName: "standard output", code: ENOSPC)) { try writer.send("event\n") }
        #expect("\(WriteError(descriptorName: "standard output", code: ENOSPC))" == "cannot write to standard output: No space left on device")
    }

    @Test func aDescriptorNotOpenForWritingIsBadFileDescriptor() throws {
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = OutputWriter(descriptor: descriptor, name: "standard error", onFailure: .discard)
        #expect(throws: WriteError(descriptorName: "standard error", code: EBADF)) { try writer.send("x") }
    }

    @Test func aFailedWriteUnderTheDiscardPolicyReturns() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        // Reaching the next line is the test: the text is dropped, the program goes on.
        OutputWriter(descriptor: descriptor, name: "standard error", onFailure: .discard).write("lost\n")
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
