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

    /// The duration, brought within ``Duration/wireReach`` either way (a peer may send any `Int64`).
    package var core: Duration {
        Duration(secondsComponent: min(max(seconds, -Duration.wireReach), Duration.wireReach), attosecondsComponent: attoseconds)
    }
}
