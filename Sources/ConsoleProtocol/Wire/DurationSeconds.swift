extension Duration {
    /// The duration in seconds, as the protocol's times are written.
    var wireSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Duration {
    /// How far, either way, a time or a duration a peer sends may reach, in seconds: a
    /// century. A peer may write anything, and `Duration.seconds(_:)` stops the process on a
    /// value it cannot hold (1e300, infinity), as does the arithmetic the screens do on a huge
    /// one; what is brought within this is only ever shown, so a broken or hostile peer's value
    /// shows as far off instead of ending the client.
    static let wireReach: Int64 = 100 * 31_557_600
}

extension ContinuousClock.Instant {
    /// The instant `seconds` (a peer's number) after `origin`, the seconds brought within
    /// ``Duration/wireReach`` either way (NaN counts as zero).
    package static func wire(_ seconds: Double, after origin: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let reach = Double(Duration.wireReach)
        return origin + .seconds(seconds.isNaN ? 0 : min(max(seconds, -reach), reach))
    }
}
