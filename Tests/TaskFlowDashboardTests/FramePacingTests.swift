@testable import DashboardKit
import Testing

/// When the loop draws: never for more than half the main thread, which also runs the engine's
/// events and the flows' foreground steps.
@Suite("Frame pacing")
struct FramePacingTests {
    private let start = ContinuousClock.now

    @Test func theFirstFrameStartsAtOnce() {
        #expect(FramePacer(frameInterval: .milliseconds(33)).allowsFrame(at: start))
    }

    @Test func aQuickFrameIsFollowedAFrameIntervalAfterItsStart() {
        var pacer = FramePacer(frameInterval: .milliseconds(33))
        pacer.drew(at: start, taking: .milliseconds(5))
        #expect(!pacer.allowsFrame(at: start + .milliseconds(32)))
        #expect(pacer.allowsFrame(at: start + .milliseconds(33)))
    }

    /// A terminal that takes 40 ms per frame (a slow link, a huge screen) gets a frame every
    /// 80 ms: the other 40 ms are the engine's. Drawn back to back, frames took the whole thread
    /// and the screen fell seconds behind the flows.
    @Test func aSlowFrameIsFollowedNoSoonerThanTwiceItsDrawingTime() {
        var pacer = FramePacer(frameInterval: .milliseconds(33))
        pacer.drew(at: start, taking: .milliseconds(40))
        #expect(!pacer.allowsFrame(at: start + .milliseconds(79)))
        #expect(pacer.allowsFrame(at: start + .milliseconds(80)))
        #expect(pacer.nextFrame == start + .milliseconds(80))
    }

    @Test func theLastFrameDecides() {
        var pacer = FramePacer(frameInterval: .milliseconds(33))
        pacer.drew(at: start, taking: .milliseconds(400))
        pacer.drew(at: start + .seconds(1), taking: .milliseconds(2))
        #expect(pacer.nextFrame == start + .seconds(1) + .milliseconds(33))
    }
}
