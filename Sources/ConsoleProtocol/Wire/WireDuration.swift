/// A `Duration` as it travels, without loss: `{"seconds": 0, "attoseconds": 400000000000000000}`.
package struct WireDuration: Codable, Sendable, Hashable {
    /// The whole seconds.
    package let seconds: Int64
    /// The rest, in attoseconds (10⁻¹⁸ s).
    package let attoseconds: Int64

    /// The wire form of `core`.
    package init(_ core: Duration) {
        seconds = core.components.seconds
        attoseconds = core.components.attoseconds
    }

    /// The duration, brought within a century either way: a peer may send any `Int64`, and the
    /// screens do arithmetic on what it gives them.
    package var core: Duration {
        let century = Int64(100 * 365.25 * 86_400)
        return Duration(secondsComponent: min(max(seconds, -century), century), attosecondsComponent: attoseconds)
    }
}
