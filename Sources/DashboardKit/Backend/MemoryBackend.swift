/// A test backend: it keeps the last grid drawn in memory and plays keys queued by a test, so
/// the whole dashboard runs, loop included, without a terminal.
@MainActor
package final class MemoryBackend: DashboardBackend {
    /// The screen size; change it to simulate a resize.
    package var size: GridSize {
        didSet { resized = resized || size != oldValue }
    }
    /// The glyphs drawn with.
    package let glyphs: Glyphs
    /// The last grid drawn.
    package private(set) var grid: CellGrid?
    /// The theme the last grid was drawn with.
    package private(set) var theme: Theme?
    /// Grids drawn so far.
    package private(set) var frames = 0
    /// Called after each draw (benchmarks time the event-to-frame delay with it).
    package var onDraw: ((CellGrid) -> Void)?
    private var pendingKeys: [Key] = []
    private var resized = false

    /// A memory screen of `size`.
    package init(size: GridSize, glyphs: Glyphs = .unicode) {
        self.size = size
        self.glyphs = glyphs
    }

    /// Queues keys for the loop to deliver at its next wake.
    package func type(_ keys: Key...) {
        pendingKeys += keys
    }

    package var inputDescriptor: Int32? { nil }

    /// A memory grid never hangs up.
    package var hasHungUp: Bool { false }

    package var needsFrame: Bool { resized }

    package func draw(_ grid: CellGrid, theme: Theme) {
        self.grid = grid
        self.theme = theme
        frames += 1
        resized = false
        onDraw?(grid)
    }

    /// Counts suspensions: a memory screen has no terminal to give back and no shell to stop for.
    package func suspend() {
        suspensions += 1
    }

    /// How many times the loop suspended this backend.
    package private(set) var suspensions = 0

    package func pollKeys() -> [Key] {
        defer { pendingKeys.removeAll() }
        return pendingKeys
    }
}
