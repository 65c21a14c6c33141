extension Duration {
    /// The duration in seconds, as the protocol's times are written.
    var wireSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension ContinuousClock.Instant {
    /// The instant `seconds` (a peer's number) after `origin`. A time a peer wrote may be
    /// anything: `Duration.seconds(_:)` stops the process on a value it cannot hold (1e300,
    /// infinity), so the seconds are first brought within a century either way, and NaN counts
    /// as zero. Such an instant is only ever shown, so a broken or hostile peer's time shows as
    /// far off instead of ending the client.
    package static func wire(_ seconds: Double, after origin: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let century = 100 * 365.25 * 86_400.0
        return origin + .seconds(seconds.isNaN ? 0 : min(max(seconds, -century), century))
    }
}
