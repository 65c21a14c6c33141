/// The state the demo's write flows change: a small library catalogue.
public struct Library: Sendable, Hashable {
    /// Titles in the catalogue.
    public var books: [String] = []
    /// Whether the catalogue was pushed to the (imaginary) server.
    public var synced = false

    /// An empty catalogue.
    public init() {}
}

/// The error the demo's sync flow fails with, so the dashboard shows a rollback.
struct ServerRejected: Error, CustomStringConvertible {
    var description: String { "server rejected the push (HTTP 409 conflict)" }
}
