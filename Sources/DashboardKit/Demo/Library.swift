/// The state the demo's write flows change: a small library catalogue.
package struct Library: Sendable, Hashable {
    /// Titles in the catalogue.
    package var books: [String] = []
    /// Whether the catalogue was pushed to the (imaginary) server.
    package var synced = false

    /// An empty catalogue.
    package init() {}
}

/// The error the demo's sync flow fails with, so the dashboard shows a rollback.
struct ServerRejected: Error, CustomStringConvertible {
    var description: String { "server rejected the push (HTTP 409 conflict)" }
}
