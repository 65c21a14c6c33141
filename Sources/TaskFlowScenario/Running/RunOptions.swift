/// How to run a scenario: the command line's `--speed` and `--seed`.
package struct RunOptions: Sendable, Equatable {
    /// The time scale: 2 runs twice as fast, 0.5 at half speed. Always within ``validSpeeds``.
    package let speed: Double
    /// Replaces the scenario's own seed when set, so `fail_chance` draws differently.
    package let seed: UInt64?

    /// Options for a run. `speed` must satisfy ``isValidSpeed(_:)``: check user input first.
    package init(speed: Double = 1, seed: UInt64? = nil) {
        precondition(Self.isValidSpeed(speed), "speed must be within \(Self.validSpeeds), got \(speed)")
        self.speed = speed
        self.seed = seed
    }

    /// The speeds a run accepts: 0.01 (a hundred times slower) to 1000 (a thousand times
    /// faster). Slower would make a demo look hung (a 1-second step taking hours); faster gains
    /// nothing, every wait being already far below what a terminal can show; and the bounds keep
    /// every scaled duration comfortably within `Duration`'s range.
    package static let validSpeeds: ClosedRange<Double> = 0.01...1000

    /// Whether `speed` is within ``validSpeeds`` (NaN is not): what `--speed` is checked with.
    package static func isValidSpeed(_ speed: Double) -> Bool {
        validSpeeds.contains(speed)
    }
}
