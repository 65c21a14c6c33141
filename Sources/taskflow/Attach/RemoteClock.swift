import Foundation

/// Places a watched program's times on this process's `ContinuousClock`: a message's `time` is
/// seconds since the program's feed started, and its first snapshot says how long ago that was.
struct RemoteClock: Sendable {
    /// This process's instant at which the program's feed started.
    let origin: ContinuousClock.Instant

    /// The clock of a feed whose snapshot, taken `snapshotTime` seconds into it, arrived just now.
    init(snapshotTime: Double, now: ContinuousClock.Instant = .now) {
        origin = .wire(-snapshotTime, after: now)
    }

    /// The instant of a message sent `seconds` into the feed.
    func instant(_ seconds: Double) -> ContinuousClock.Instant { .wire(seconds, after: origin) }
}
