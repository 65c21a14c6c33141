/// Decides where steps fail on purpose. `fail_at` is fixed; `fail_chance` draws from a number
/// derived only from the seed and the step's address (its place in the scenario and which
/// submission of its flow it belongs to), never from timing or a shared generator, so the same
/// seed fails the same steps however the flows interleave.
struct FailureDice: Sendable {
    let seed: UInt64

    /// The fraction of the step at which it fails, or nil if it does not fail.
    func failurePoint(of injection: FailureInjection?, at address: String) -> Double? {
        switch injection {
        case nil: nil
        case .at(let fraction): fraction
        case .chance(let probability): roll(address, draw: 0) < probability ? roll(address, draw: 1) : nil
        }
    }

    /// A number in 0..<1, the same for the same seed, address and draw.
    func roll(_ address: String, draw: UInt64) -> Double {
        var state = seed ^ Self.fnv1a(address) ^ (draw &* 0x9E37_79B9_7F4A_7C15)
        // 53 random bits are exactly what a Double's significand holds.
        return Double(Self.splitMix(&state) >> 11) / Double(UInt64(1) << 53)
    }

    /// FNV-1a: a stable string hash (Swift's `Hasher` is seeded anew in every process).
    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { hash, byte in (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    /// SplitMix64: turns similar inputs into unrelated outputs.
    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
