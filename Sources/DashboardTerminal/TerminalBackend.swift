import CNcurses
import DashboardKit
import Glibc

/// The dashboard on a real terminal: copies each frame's cell grid to the screen in one
/// `doupdate`, with each role's theme style, and reads keys without blocking.
@MainActor
package final class TerminalBackend: DashboardBackend {
    private let screen: TerminalScreen
    private var palette: StylePalette?
    private var drawnSize: GridSize?
    private var resized = false

    /// A backend drawing on `screen`.
    package init(screen: TerminalScreen) {
        self.screen = screen
    }

    package var inputDescriptor: Int32? { STDIN_FILENO }

    /// Whether the terminal hung up: `poll` reports it on stdin (a closed pty, a `nohup`ed
    /// dashboard whose window was closed), where ncurses only ever reads "no key".
    package var hasHungUp: Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) == 1 else { return false }
        return input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    package var size: GridSize { screen.size }

    package var glyphs: Glyphs { screen.glyphs }

    package var needsFrame: Bool { resized || drawnSize != screen.size }

    package func draw(_ grid: CellGrid, theme: Theme) {
        if palette?.themeName != theme.name {
            palette = StylePalette(theme: theme, depth: screen.depth)
        }
        if resized || drawnSize != grid.size { werase(tf_stdscr()) }
        paint(grid)
        wnoutrefresh(tf_stdscr())
        doupdate()
        drawnSize = grid.size
        resized = false
    }

    /// A SIGTSTP sent to the process (the loop's signal watcher asks).
    package func suspend() {
        suspend(wholeJob: false)
    }

    private func suspend(wholeJob: Bool) {
        screen.suspend(wholeJob: wholeJob)
        // The shell drew on the screen meanwhile: the next frame repaints every cell.
        resized = true
    }

    package func pollKeys() -> [Key] {
        if screen.followKernelSize() { resized = true }
        var keys: [Key] = []
        var code: wint_t = 0
        while true {
            let status = wget_wch(tf_stdscr(), &code)
            guard status != ERR else { return keys }
            switch KeyDecoder.decode(code, isFunctionKey: status == tf_key_code_yes(), suspendKey: screen.suspendKey) {
            case .key(let key): keys.append(key)
            case .resize: resized = true
            case .suspend: suspend(wholeJob: true)
            case .mouse:
                var event = MEVENT()
                if getmouse(&event) == OK, let mouse = KeyDecoder.mouse(state: event.bstate, x: event.x, y: event.y) {
                    keys.append(.mouse(mouse))
                }
            case .ignored: break
            }
        }
    }

    /// Writes the grid row by row, one `mvwaddnwstr` per run of cells with the same role.
    private func paint(_ grid: CellGrid) {
        guard let palette else { return }
        for (y, row) in grid.rows.enumerated() {
            var start = row.startIndex
            while start < row.endIndex {
                let role = row[start].role
                let end = row[start...].firstIndex { $0.role != role } ?? row.endIndex
                // A wide character's continuation cell draws nothing (the terminal fills that
                // column itself); combining marks follow their base character.
                let text = row[start..<end].flatMap(\.drawnScalars).map { wchar_t(bitPattern: $0.value) } + [0]
                let style = palette.style(for: role)
                tf_set_style(tf_stdscr(), style.attributes, style.pair)
                mvwaddnwstr(tf_stdscr(), Int32(y), Int32(start - row.startIndex), text, Int32(text.count - 1))
                start = end
            }
        }
        tf_set_style(tf_stdscr(), tf_a_normal(), 0)
    }
}
