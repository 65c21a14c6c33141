/// An output that keeps the last frame in memory and plays keys queued by a test: the whole
/// dashboard runs, loop included, without a terminal.
@MainActor
public final class MemoryBackend: DashboardOutput {
    /// The screen size; change it to simulate a resize.
    public var size: GridSize {
        didSet { resized = size != oldValue }
    }
    /// The glyphs drawn with.
    public let glyphs: Glyphs
    /// The last frame presented.
    public private(set) var grid: CellGrid?
    /// Frames presented so far.
    public private(set) var frames = 0
    /// Called after each frame (benchmarks time the event-to-frame delay with it).
    public var onPresent: ((CellGrid) -> Void)?
    private var pendingKeys: [Key] = []
    private var resized = false

    /// A memory screen of `size`.
    public init(size: GridSize, glyphs: Glyphs = .unicode) {
        self.size = size
        self.glyphs = glyphs
    }

    /// Queues keys for the loop to deliver at its next wake.
    public func type(_ keys: Key...) {
        pendingKeys += keys
    }

    public var inputDescriptor: Int32? { nil }

    public var needsFrame: Bool { resized }

    public func present(_ session: DashboardSession) {
        let frame = session.frame(size: size, glyphs: glyphs)
        grid = frame
        frames += 1
        resized = false
        onPresent?(frame)
    }

    public func pollKeys() -> [Key] {
        defer { pendingKeys.removeAll() }
        return pendingKeys
    }
}
