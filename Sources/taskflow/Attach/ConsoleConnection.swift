import ConsoleProtocol
import TaskFlowConsole

/// What `taskflow attach` needs of a console connection, past the handshake: the program's
/// hello and first snapshot, its messages in order, and commands answered by replies.
/// ``ConsoleClient`` is one; tests stand in for it with a program's feed in the same process.
protocol ConsoleConnection: Sendable {
    /// The program's hello, its version checked.
    var hello: ServerHello { get }
    /// Everything it watched when the connection was made.
    var snapshot: SnapshotMessage { get }
    /// What the program sends after ``snapshot``, in order (replies aside); finishes when the
    /// connection ends. One consumer.
    var messages: AsyncStream<ServerMessage> { get }
    /// Sends `command` and returns the program's reply; throws when the connection ended first.
    func send(_ command: ConsoleCommand) async throws -> ReplyMessage
    /// Closes the connection; the program goes on.
    func close() async
}

extension ConsoleClient: ConsoleConnection {}
