import ConsoleProtocol

/// Sends the keys' commands to a watched program and says in the status line how each went:
/// "cancel #7: done", "cancel #7 refused: unknown flow 7", "retry of job 4 refused: read-only
/// console", "undo #3 not sent: connection closed".
struct RemoteCommands: Sendable {
    let connection: any ConsoleConnection
    /// Shows a line in the status bar.
    let notice: @Sendable (String) -> Void

    /// Sends `command` (`what` names it for the user) and shows the outcome; returns the reply,
    /// or nil when it could not be sent.
    @discardableResult
    func send(_ command: ConsoleCommand, _ what: String) async -> ReplyMessage? {
        do {
            let reply = try await connection.send(command)
            notice(Self.text(of: reply, what))
            return reply
        } catch {
            notice("\(what) not sent: \(error)")
            return nil
        }
    }

    /// Sends `command` without waiting for the reply, which shows when it comes.
    func fire(_ command: ConsoleCommand, _ what: String) {
        Task { await send(command, what) }
    }

    /// Like ``send(_:_:)``, throwing why when the program did not carry it out: for the
    /// dashboard's own error line (an undo's, a stored job's retry).
    func perform(_ command: ConsoleCommand, _ what: String) async throws {
        guard let reply = await send(command, what) else { throw RemoteError("not sent") }
        guard reply.ok else { throw RemoteError(reply.message ?? "refused") }
    }

    /// "cancel #7: done", or the program's note, or "cancel #7 refused: why".
    static func text(of reply: ReplyMessage, _ what: String) -> String {
        if reply.ok { return "\(what): \(reply.message ?? "done")" }
        return "\(what) refused: \(reply.message ?? "no reason given")"
    }
}
