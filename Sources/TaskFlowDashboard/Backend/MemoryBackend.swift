/// A test backend: it keeps the last grid drawn in memory and plays keys queued by a test, so
/// the whole dashboard runs, loop included, without a terminal.
@MainActor
public final class MemoryBackend: DashboardBackend {
    /// The screen size; change it to simulate a resize.
    public var size: GridSize {
        didSet { resized = resized || size != oldValue }
    }
    /// The glyphs drawn with.
    public let glyphs: Glyphs
    /// The last grid drawn.
    public private(set) var grid: CellGrid?
    /// The theme the last grid was drawn with.
    public private(set) var theme: Theme?
    /// Grids drawn so far.
    public private(set) var frames = 0
    /// Called after each draw (benchmarks time the event-to-frame delay with it).
    public var onDraw: ((CellGrid) -> Void)?
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

    /// A memory grid never hangs up.
    public var hasHungUp: Bool { false }

    public var needsFrame: Bool { resized }

    public func draw(_ grid: CellGrid, theme: Theme) {
        self.grid = grid
        self.theme = theme
        frames += 1
        resized = false
        onDraw?(grid)
    }

    /// Counts suspensions: a memory screen has no terminal to give back and no shell to stop for.
    public func suspend() {
        suspensions += 1
    }

    /// How many times the loop suspended this backend.
    public private(set) var suspensions = 0

    public func pollKeys() -> [Key] {
        defer { pendingKeys.removeAll() }
        return pendingKeys
    }
}
