import TaskFlow

/// Plays a recording on a session, read-only, with time controls: entries are played when the
/// ``ReplayTimeline`` says they are due on `clock` (tests drive a clock of their own), the
/// session's time is the replay's position, the model's time bar shows where it is, and the
/// replay's keys (``ReplayKeyMap``) move it; every other key goes to the session, which refuses
/// what would act on the program ("replay: read-only"). Seeking back rebuilds the model from the
/// recording's start (``DashboardSession/rebuild(_:)``).
@MainActor
package final class ReplayPlayer {
    /// What the status bar says when a key would act on the program.
    package static let readOnlyNotice = "replay: read-only"

    private let entries: [ReplayEntry]
    private let session: DashboardSession
    private let clock: any TimingClock
    /// Where the replay is.
    package private(set) var timeline: ReplayTimeline
    /// Sleeps until the next entry is due, then plays it.
    private var playback: Task<Void, Never>?

    /// A player of `entries` on `session` at `speed`, timed by `clock`; it starts playing at
    /// ``start()``.
    package init(entries: [ReplayEntry], session: DashboardSession, clock: any TimingClock = ContinuousClock(), speed: Double = 1) {
        self.entries = entries
        self.session = session
        self.clock = clock
        timeline = ReplayTimeline(times: entries.map(\.time), speed: speed, now: clock.now)
    }

    /// Makes the session a replay's (read-only, on the replay's time, with a time bar) and
    /// starts playing from the recording's start.
    package func start() {
        session.readOnlyNotice = Self.readOnlyNotice
        session.timeline = { [weak self] in
            guard let self else { return .zero }
            return timeline.position(at: clock.now)
        }
        play(timeline.seek(to: .zero, at: clock.now))
    }

    /// Stops playing (the loop ended).
    package func stop() {
        playback?.cancel()
        playback = nil
    }

    /// A typed key: in the normal mode the replay's keys act first, every other key goes to
    /// the session.
    package func handle(_ key: Key) {
        guard session.model.mode == .normal, let action = ReplayKeyMap.action(for: key) else {
            session.handle(key)
            return
        }
        play(timeline.perform(action, at: clock.now))
    }

    /// Plays what `playing` asks for, shows the time bar and waits for what comes next.
    private func play(_ playing: ReplayTimeline.Playing) {
        switch playing {
        case .append(let range):
            for entry in entries[range] { entry.play(on: session) }
        case .rebuild(let count):
            session.rebuild { for entry in entries[..<count] { entry.play(on: session) } }
        }
        session.showReplay(
            ReplayStatus(
                length: timeline.length, speed: timeline.speed, paused: timeline.paused, played: timeline.played,
                events: timeline.count))
        // The model's clock is the position, between events too (the time bar shows it).
        session.tick()
        schedule()
    }

    /// Wakes when the next entry is due (the timeline's wake), unless paused.
    private func schedule() {
        playback?.cancel()
        guard let wake = timeline.nextWake() else { return }
        playback = Task { [weak self, clock] in
            do {
                try await clock.sleep(until: wake, tolerance: nil)
            } catch {
                return  // Cancelled: a key moved the replay, which scheduled anew.
            }
            guard let self else { return }
            play(timeline.catchUp(at: clock.now))
        }
    }
}
