/// When the loop may start its next frame: a ``frameInterval`` after the last one started, or
/// twice that frame's drawing time when that is longer, so that drawing never takes more than
/// half the main thread.
///
/// Why: the same thread runs the engine's events and the flows' foreground steps. A frame that
/// takes longer to draw than the interval (a slow terminal, a huge one, a sanitizer build) was
/// otherwise followed at once by the next, and the rest only got the gaps: under
/// ThreadSanitizer, frames of 45 ms took 98% of the thread and the screen fell ten seconds
/// behind the flows, so a cancel typed at what it showed came too late.
struct FramePacer {
    /// The shortest time between the starts of two frames.
    let frameInterval: Duration
    /// When the last frame started, and how long it took to draw.
    private var lastFrame: (start: ContinuousClock.Instant, drawing: Duration)?

    init(frameInterval: Duration) {
        self.frameInterval = frameInterval
    }

    /// The earliest start of the next frame; nil before the first, which may start at once.
    var nextFrame: ContinuousClock.Instant? {
        lastFrame.map { $0.start + max(frameInterval, $0.drawing * 2) }
    }

    /// Whether a frame may start at `now`.
    func allowsFrame(at now: ContinuousClock.Instant) -> Bool {
        nextFrame.map { now >= $0 } ?? true
    }

    /// A frame started at `start` and took `drawing` to draw.
    mutating func drew(at start: ContinuousClock.Instant, taking drawing: Duration) {
        lastFrame = (start, drawing)
    }
}
