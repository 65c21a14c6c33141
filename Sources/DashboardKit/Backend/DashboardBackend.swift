/// A screen the loop paints on and reads keys from: the terminal, or a memory grid in tests.
/// A backend only paints the grid it is handed (ratatui's `Terminal::draw` → `Backend`): it
/// never asks the session or the model for anything. The loop asks it for its ``size`` and
/// ``glyphs``, has the session render a frame of that size, and hands the grid to
/// ``draw(_:theme:)``. Headless output is not a backend: see ``EventPrinter``.
@MainActor
package protocol DashboardBackend: AnyObject {
    /// A descriptor the loop watches for input (stdin), or nil when there is no input.
    var inputDescriptor: Int32? { get }

    /// The size the next frame should have; follows resizes.
    var size: GridSize { get }

    /// The characters the screen can show.
    var glyphs: Glyphs { get }

    /// True when the screen needs a frame even if the model did not change (it was resized).
    var needsFrame: Bool { get }

    /// Paints `grid` (rendered at ``size``) with `theme`'s styles.
    func draw(_ grid: CellGrid, theme: Theme)

    /// Ctrl-Z: gives the terminal back as the shell expects and stops the process, as SIGTSTP's
    /// default action would; returns after `fg`, with the screen taken back and a full frame due.
    func suspend()

    /// The keys typed since the last call, without blocking.
    func pollKeys() -> [Key]

    /// True once the input is gone for good (the terminal hung up): nobody can see the screen
    /// or type a key any more, so the loop ends as it would on SIGHUP.
    var hasHungUp: Bool { get }
}
