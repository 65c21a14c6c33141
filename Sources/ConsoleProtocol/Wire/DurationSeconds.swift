extension Duration {
    /// The duration in seconds, as the protocol's times are written.
    var wireSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
