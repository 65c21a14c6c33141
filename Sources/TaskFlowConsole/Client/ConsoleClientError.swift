/// Why attaching to a console failed or ended, in one line naming the socket.
package enum ConsoleClientError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Nothing at the path.
    case noConsole(path: String)
    /// Something other than a socket at the path.
    case notASocket(path: String)
    /// A socket nobody serves: its program ended without removing it.
    case stale(path: String)
    /// The socket or its folder belongs to another user.
    case notYours(path: String)
    /// Connecting failed for another reason.
    case connectFailed(path: String, reason: String)
    /// The program speaks another major version: the message names both.
    case versionMismatch(String)
    /// The program refused the client (its reason).
    case refused(String)
    /// The program sent what is not the protocol.
    case protocolError(String)
    /// The program did not answer the handshake in time.
    case timedOut(path: String)
    /// The connection ended (the program's `bye` reason, or how it ended).
    case closed(String)

    package var description: String {
        switch self {
        case .noConsole(let path): "no console at \(path): no such file"
        case .notASocket(let path): "\(path) is not a console's socket"
        case .stale(let path): "no program serves \(path) any more (connection refused): it ended without removing its socket"
        case .notYours(let path): "\(path) belongs to another user: permission denied"
        case .connectFailed(let path, let reason): "cannot connect to \(path): \(reason)"
        case .versionMismatch(let message): message
        case .refused(let reason): "the program refused this client: \(reason)"
        case .protocolError(let message): "the program sent what is not the console protocol: \(message)"
        case .timedOut(let path): "\(path) did not answer the handshake in time"
        case .closed(let reason): "the program closed the connection: \(reason)"
        }
    }
}
