import ConsoleProtocol
import TaskFlowSupport

/// Where a client's connection puts what the program sends: the handshake's messages to
/// ``ConsoleClient/connect(path:client:timeout:)``, replies to the command that awaits them,
/// everything else to the client's stream.
final class ClientInbox: Sendable {
    let messages: AsyncStream<ServerMessage>
    private let continuation: AsyncStream<ServerMessage>.Continuation
    private let state = Protected(State())

    private struct State {
        var handshakeDone = false
        var early: [ServerMessage] = []
        var waiter: CheckedContinuation<ServerMessage, any Error>?
        var replies: [Int: CheckedContinuation<ReplyMessage, any Error>] = [:]
        var ended: ConsoleClientError?
        var lastBye: String?
    }

    init() {
        (messages, continuation) = AsyncStream<ServerMessage>.makeStream()
    }

    /// A message arrived.
    func receive(_ message: ServerMessage) {
        let action: () -> Void = state.withLock { state in
            switch message {
            case .reply(let reply):
                let waiter = state.replies.removeValue(forKey: reply.id)
                return { waiter?.resume(returning: reply) }
            case .bye(let bye):
                state.lastBye = bye.reason
            default:
                break
            }
            guard state.handshakeDone else {
                if let waiter = state.waiter {
                    state.waiter = nil
                    return { waiter.resume(returning: message) }
                }
                state.early.append(message)
                return {}
            }
            return { [continuation] in continuation.yield(message) }
        }
        action()
    }

    /// The connection ended: everyone waiting learns why, and the stream finishes.
    func end(_ error: ConsoleClientError) {
        let (waiter, replies, reason) = state.withLock { state in
            let reason = state.ended ?? state.lastBye.map(ConsoleClientError.closed) ?? error
            state.ended = reason
            defer {
                state.waiter = nil
                state.replies = [:]
            }
            return (state.waiter, Array(state.replies.values), reason)
        }
        waiter?.resume(throwing: reason)
        for reply in replies { reply.resume(throwing: reason) }
        continuation.finish()
    }

    /// Why the connection ended, once it has: a write that failed because of it reports this
    /// instead of the channel's bare "I/O on closed channel".
    var endReason: ConsoleClientError? {
        state.withLock { $0.ended }
    }

    /// The next message of the handshake.
    func nextHandshakeMessage() async throws -> ServerMessage {
        try await withCheckedThrowingContinuation { waiter in
            let ready: Result<ServerMessage, any Error>? = state.withLock { state in
                if !state.early.isEmpty { return .success(state.early.removeFirst()) }
                if let ended = state.ended { return .failure(ended) }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(with: ready) }
        }
    }

    /// The handshake is over: what came after it goes to the stream, in order.
    func finishHandshake() {
        state.withLock { state in
            state.handshakeDone = true
            for message in state.early { continuation.yield(message) }
            state.early = []
        }
    }

    /// Waits for the reply to command `id`, which `send` then writes.
    func reply(to id: Int, send: @Sendable () -> Void) async throws -> ReplyMessage {
        try await withCheckedThrowingContinuation { waiter in
            let ended = state.withLock { state in
                if state.ended == nil { state.replies[id] = waiter }
                return state.ended
            }
            if let ended { return waiter.resume(throwing: ended) }
            send()
        }
    }
}
