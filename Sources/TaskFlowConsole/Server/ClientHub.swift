import ConsoleProtocol
import Foundation
import NIOCore
import TaskFlowSupport

/// The console's clients and the one subscription that feeds them all.
///
/// - **Nothing while nobody watches.** The feed is subscribed when the first client completes
///   its handshake and unsubscribed when the last one leaves: a subscription costs every step.
/// - **One subscription, many clients.** Each event is encoded once and written to every client.
/// - **Slow clients never slow or grow the program.** A client whose channel is not writable
///   (its outbound buffer is past the high-water mark) has the event dropped and counted; once
///   it is writable again it gets a fresh snapshot carrying the count (`missed`), then events.
/// - **Order.** A joining client's snapshot is taken, and written, under the same lock as the
///   events, so it sees every event after its snapshot and none is lost in between.
final class ClientHub: Sendable {
    private let feed: ConsoleFeed
    private let state = Protected(State())

    private struct State {
        var nextID = 0
        /// Every open connection, joined or not: shutdown says bye to each.
        var connections: [Int: any Channel] = [:]
        /// Joined clients (handshake done) and the messages each missed since its last snapshot.
        var missed: [Int: Int] = [:]
        var subscription: Task<Void, Never>?
        var closing = false
    }

    init(feed: ConsoleFeed) { self.feed = feed }

    /// Registers a new connection; nil when `limit` connections are open or the console is
    /// shutting down.
    func accept(_ channel: any Channel, limit: Int) -> Int? {
        state.withLock { state in
            guard !state.closing, state.connections.count < limit else { return nil }
            state.nextID += 1
            state.connections[state.nextID] = channel
            return state.nextID
        }
    }

    /// The client finished its handshake: subscribe if it is the first, then write it a
    /// snapshot; events follow.
    func join(_ id: Int) {
        state.withLock { state in
            guard let channel = state.connections[id], state.missed[id] == nil else { return }
            if state.subscription == nil {
                // Subscribed before the snapshot is taken, so that nothing falls in between.
                let events = feed.subscribe()
                // Holds the hub until cancelled: by the last client leaving, or by `close()`.
                state.subscription = Task { [self] in
                    await events.run { self.broadcast($0) }
                }
            }
            state.missed[id] = 0
            write(feed.snapshot(), to: channel)
        }
    }

    /// The connection closed; the last client to leave ends the subscription.
    func leave(_ id: Int) {
        let ended = state.withLock { state -> Task<Void, Never>? in
            state.connections[id] = nil
            state.missed[id] = nil
            guard state.missed.isEmpty else { return nil }
            defer { state.subscription = nil }
            return state.subscription
        }
        ended?.cancel()
    }

    /// The client can be written to again: if it missed events, it gets a fresh snapshot.
    func caughtUp(_ id: Int) {
        state.withLock { state in
            guard let channel = state.connections[id], let missed = state.missed[id], missed > 0, channel.isWritable else {
                return
            }
            state.missed[id] = 0
            write(feed.snapshot(missed: missed), to: channel)
        }
    }

    /// Ends the console: no new connections; returns every open one, to be told goodbye.
    func close() -> [any Channel] {
        let (channels, subscription) = state.withLock { state in
            state.closing = true
            defer { state.subscription = nil }
            return (Array(state.connections.values), state.subscription)
        }
        subscription?.cancel()
        return channels
    }

    /// Whether the feed is subscribed now.
    var isSubscribed: Bool { state.withLock { $0.subscription != nil } }

    /// The open connections.
    var channels: [any Channel] { state.withLock { Array($0.connections.values) } }

    private func broadcast(_ message: ServerMessage) {
        guard let line = try? MessageCoding.line(message) else { return }
        let buffer = ByteBuffer(bytes: line)
        state.withLock { state in
            for (id, missed) in state.missed {
                guard let channel = state.connections[id] else { continue }
                if !channel.isWritable {
                    state.missed[id] = missed + 1
                } else if missed > 0 {
                    // Writable again before its writability event came: resync here. The
                    // snapshot already shows this event.
                    state.missed[id] = 0
                    write(feed.snapshot(missed: missed), to: channel)
                } else {
                    channel.writeAndFlush(buffer, promise: nil)
                }
            }
        }
    }

    private func write(_ message: ServerMessage, to channel: any Channel) {
        guard let line = try? MessageCoding.line(message) else { return }
        channel.writeAndFlush(ByteBuffer(bytes: line), promise: nil)
    }
}
