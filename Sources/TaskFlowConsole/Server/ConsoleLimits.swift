/// The bounds that keep a console from costing its program more than a fixed amount, whatever
/// its clients do.
public struct ConsoleLimits: Sendable, Hashable {
    /// The longest line a client may send; a longer one cuts the client off. 1 MiB.
    public var maxLineBytes: Int
    /// How many bytes may wait to be sent to one client. Past this, its events are dropped and
    /// counted, and it gets a fresh snapshot once it catches up. 1 MiB.
    public var outboundBytes: Int
    /// How long a client may leave a full buffer unread before it is cut off. 30 s.
    public var stallTimeout: Duration
    /// How long a client has to say hello after connecting; past it, the client is cut off with
    /// a `bye` saying so. 10 s.
    public var handshakeTimeout: Duration
    /// How many clients may be connected at once; more are refused. 64.
    public var maxClients: Int

    /// The limits, each with its default unless given.
    public init(
        maxLineBytes: Int = 1 << 20, outboundBytes: Int = 1 << 20, stallTimeout: Duration = .seconds(30),
        handshakeTimeout: Duration = .seconds(10), maxClients: Int = 64
    ) {
        self.maxLineBytes = maxLineBytes
        self.outboundBytes = outboundBytes
        self.stallTimeout = stallTimeout
        self.handshakeTimeout = handshakeTimeout
        self.maxClients = maxClients
    }
}
