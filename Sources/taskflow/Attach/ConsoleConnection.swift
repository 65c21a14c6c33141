import ConsoleProtocol

/// What `taskflow attach` needs of an open console connection, past the handshake: the
/// program's hello, its messages in order, and commands answered by replies. The console
/// client conforms; tests stand in for it with a program's feed in the same process.
protocol ConsoleConnection: Sendable {
    /// The program's hello, checked (same protocol major).
    var hello: ServerHello { get }
    /// The program's messages after its hello, in order, starting with its first snapshot;
    /// replies may be left out (``send(_:)`` returns them). Finishes when the connection closes,
    /// throwing when it broke.
    func messages() -> AsyncThrowingStream<ServerMessage, any Error>
    /// Sends `command` and returns the program's reply; throws when it cannot be sent or the
    /// connection closed before the reply came.
    func send(_ command: ConsoleCommand) async throws -> ReplyMessage
    /// Closes the connection; the program goes on.
    func close()
}
