/// How to run a scenario: the command line's `--speed` and `--seed`.
public struct RunOptions: Sendable, Equatable {
    /// The time scale: 2 runs twice as fast, 0.5 at half speed. Always finite and above zero.
    public let speed: Double
    /// Replaces the scenario's own seed when set, so `fail_chance` draws differently.
    public let seed: UInt64?

    /// Options for a run. `speed` must satisfy ``isValidSpeed(_:)``: check user input first.
    public init(speed: Double = 1, seed: UInt64? = nil) {
        precondition(Self.isValidSpeed(speed), "speed must be finite and above zero, got \(speed)")
        self.speed = speed
        self.seed = seed
    }

    /// Whether `speed` can scale time: finite and above zero.
    public static func isValidSpeed(_ speed: Double) -> Bool {
        speed.isFinite && speed > 0
    }
}
