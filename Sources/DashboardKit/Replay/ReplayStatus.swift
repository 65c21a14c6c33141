/// What a replay's time bar shows (``SharedState/replay``): the recording's length, how fast it
/// plays, whether it is paused, and how many of its events were played. The position is the
/// model's clock (``SharedState/now``), which a replay's session sets to it.
package struct ReplayStatus: Sendable, Hashable {
    /// The time of the recording's last event.
    package var length: Duration
    /// Recorded seconds played per second: 1 plays as it happened.
    package var speed: Double
    /// True while paused (also once the end is reached).
    package var paused: Bool
    /// How many of the recording's events were applied.
    package var played: Int
    /// How many events the recording holds.
    package var events: Int

    /// A status.
    package init(length: Duration, speed: Double, paused: Bool, played: Int, events: Int) {
        self.length = length
        self.speed = speed
        self.paused = paused
        self.played = played
        self.events = events
    }

    /// True while the position moves on its own.
    package var isPlaying: Bool { !paused }

    /// The speed as the bar shows it: `x2`, `x0.5`.
    package var speedText: String {
        speed == speed.rounded() ? "x\(Int(speed))" : "x\(speed)"
    }
}
