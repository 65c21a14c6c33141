import Foundation
import Testing
@testable import TaskFlowDashboard

/// The loop shares the main thread between frames and everything else it runs there: the
/// engine's events and the flows' foreground steps.
@Suite("Frame pacing")
@MainActor
struct FramePacingTests {
    /// A terminal that takes 40 ms to paint each frame (a slow link, a huge screen) and always
    /// wants the next: frames come less often, but never take more than about half the thread.
    /// Drawn back to back, they took nearly all of it, and the engine's events, waiting for the
    /// thread, reached the screen seconds late.
    @Test func aSlowTerminalTakesAtMostHalfTheMainThread() {
        let session = DashboardSession(scenarioName: "busy", theme: .fallback, themes: ThemeCatalog(directories: []))
        for event in Fixture.busy { session.ingest(event) }
        let backend = SlowBackend(paint: .milliseconds(40))
        let loop = MainLoop(session: session, backend: backend)
        let start = ContinuousClock.now
        // Short: the loop holds the main actor, which the other tests' flows share.
        _ = loop.run(until: start + .milliseconds(500))
        let share = backend.painting / (ContinuousClock.now - start)
        #expect(share < 0.55, "painting took \(Int(share * 100))% of the main thread")
        #expect(backend.frames >= 2, "the screen still moves: \(backend.frames) frames")
    }
}

/// A screen that takes `paint` to draw a frame and wants a new one at once, every time.
@MainActor
private final class SlowBackend: DashboardBackend {
    let paint: Duration
    private(set) var painting = Duration.zero
    private(set) var frames = 0

    init(paint: Duration) { self.paint = paint }

    var inputDescriptor: Int32? { nil }
    var size: GridSize { GridSize(width: 120, height: 40) }
    var glyphs: Glyphs { .unicode }
    var needsFrame: Bool { true }
    var hasHungUp: Bool { false }
    func suspend() {}
    func pollKeys() -> [Key] { [] }

    func draw(_ grid: CellGrid, theme: Theme) {
        let start = ContinuousClock.now
        usleep(UInt32(paint / .microseconds(1)))
        painting += ContinuousClock.now - start
        frames += 1
    }
}
