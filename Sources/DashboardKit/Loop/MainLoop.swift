import Dispatch
import Foundation

/// The dashboard's loop, on the real main thread: it sleeps in `RunLoop.main.run(mode:before:)`,
/// which also runs main-actor jobs and main-queue work — so flows' foreground steps execute here
/// — and wakes for input, signals, engine events, and at least every ``idleWake`` (ncurses
/// reports a resize only when asked). It draws only when something changed, at most once per
/// ``frameInterval``, and never for more than half the thread's time (``FramePacer``): the same
/// thread runs the engine's events and foreground steps. Each frame goes one way: the loop asks
/// the backend for its size and glyphs, tells the session the size, has it render a grid of that
/// size, and hands the grid to the backend to paint. Without a backend (headless) the loop only
/// runs the flows and delivers their events.
@MainActor
package final class MainLoop {
    private let session: DashboardSession
    private let backend: (any DashboardBackend)?
    /// Where typed keys go: the session, or a boot that holds them until the start-up is over.
    private let keys: ((Key) -> Void)?
    /// The shortest time between two frames (30 fps).
    package var frameInterval: Duration { pacer.frameInterval }
    /// The longest sleep without a wake.
    package let idleWake: Duration
    private let clock = ContinuousClock()
    private var pacer: FramePacer

    /// A loop drawing `session` on `backend`, or drawing nothing when `backend` is nil. Typed keys
    /// go to `keys` when given (a boot buffering them), else straight to the session.
    package init(
        session: DashboardSession, backend: (any DashboardBackend)?, keys: ((Key) -> Void)? = nil,
        frameInterval: Duration = .milliseconds(33), idleWake: Duration = .milliseconds(100)
    ) {
        self.session = session
        self.backend = backend
        self.keys = keys
        pacer = FramePacer(frameInterval: frameInterval)
        self.idleWake = idleWake
    }

    /// Runs until the session asks to exit or a signal arrives; returns why. Must be called on
    /// the main thread, outside any other run of the main run loop.
    package func run() -> DashboardExit {
        // Elsewhere RunLoop.main would be run from a thread that does not own it.
        precondition(Thread.isMainThread, "MainLoop.run() must be called on the main thread")
        let signals = SignalWatcher(suspends: backend != nil)
        let input = watchInput()
        defer {
            input?.cancel()
            signals.cancel()
            session.stop()
        }
        while true {
            if let number = signals.received { return .signal(number) }
            if signals.takeSuspendRequest() { backend?.suspend() }
            if backend?.hasHungUp == true { return .signal(SIGHUP) }
            if let exit = turn(deadline: nil) { return exit }
        }
    }

    /// Runs the loop only until `deadline` or an exit request, without input or signal sources:
    /// for benchmarks and tests that drive it for a while. Returns the exit request, if any.
    package func run(until deadline: ContinuousClock.Instant) -> DashboardExit? {
        while clock.now < deadline {
            if let exit = turn(deadline: deadline) { return exit }
        }
        return nil
    }

    /// One iteration: keys, exit check, a frame if one is due, then sleep until the next wake.
    private func turn(deadline: ContinuousClock.Instant?) -> DashboardExit? {
        deliverKeys()
        if let exit = session.exitRequest { return exit }
        session.tick()
        let now = clock.now
        if let backend, frameWanted(backend), pacer.allowsFrame(at: now) {
            draw(on: backend)
            pacer.drew(at: now, taking: clock.now - now)
        }
        let wake = wakeTime(now: clock.now)
        sleep(until: deadline.map { min(wake, $0) } ?? wake)
        return nil
    }

    /// True when `backend` shows something out of date.
    private func frameWanted(_ backend: any DashboardBackend) -> Bool {
        session.changed || backend.needsFrame || session.size != backend.size
    }

    /// One frame: size in, grid out, painted.
    private func draw(on backend: any DashboardBackend) {
        let size = backend.size
        session.resize(to: size)
        backend.draw(session.frame(size: size, glyphs: backend.glyphs), theme: session.theme)
    }

    /// A frame is pending: wake when it is due. Otherwise sleep until the idle wake.
    private func wakeTime(now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        if let backend, frameWanted(backend), let nextFrame = pacer.nextFrame { return max(nextFrame, now) }
        return now + idleWake
    }

    private func sleep(until instant: ContinuousClock.Instant) {
        let seconds = max((instant - clock.now).seconds, 0)
        // Returns early when a source fires or main-queue work (a main-actor job) ran.
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
    }

    private func deliverKeys() {
        for key in backend?.pollKeys() ?? [] {
            if let keys { keys(key) } else { session.handle(key) }
        }
    }

    /// A read source on the backend's input: typing wakes the loop at once.
    private func watchInput() -> (any DispatchSourceRead)? {
        guard let descriptor = backend?.inputDescriptor else { return nil }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        source.setEventHandler { [weak self] in
            // Bound to the main queue, which only the main thread drains.
            MainActor.assumeIsolated { self?.deliverKeys() }
        }
        source.resume()
        return source
    }
}
