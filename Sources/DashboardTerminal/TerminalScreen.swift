import CNcurses
import CSignalRecorder
import DashboardKit
import Glibc

/// The ncurses screen: set up on open, restored (cursor, echo, canonical mode, main screen) by
/// ``restore()``, which is safe to call more than once. All calls happen on the main thread.
@MainActor
package final class TerminalScreen {
    /// How many colours theme colours are degraded to.
    package let depth: ColorDepth
    /// Unicode box drawing in a UTF-8 locale, ASCII otherwise.
    package let glyphs: Glyphs
    /// Whether the terminal reports clicks and the wheel (asked for at start).
    package let mouse: Bool
    /// The terminal's suspend character (Ctrl-Z unless `stty susp` says otherwise), which the
    /// screen reads as a key (see ``suspend(wholeJob:)``); nil when it has none, or when the
    /// parent left SIGTSTP ignored (it then does nothing, as it would without the dashboard).
    package let suspendKey: UInt32?
    private let screen: OpaquePointer
    private var restored = false
    /// SIGTSTP's disposition before the screen recorded it (see ``recordSuspendSignal()``), put
    /// back by ``restore()``; nil when the screen left the signal alone.
    private var replacedSuspendDisposition: sigaction?

    /// Takes over the terminal. `noColor` (the `NO_COLOR` convention) keeps it monochrome;
    /// `mouse` asks the terminal to report clicks and the wheel (see ``enableMouse()``), which
    /// it stops doing when the screen is suspended or restored.
    /// Throws, before the terminal is changed, when stdin is not a terminal, `TERM` is unset or
    /// unknown, or the terminal cannot move its cursor (`TERM=dumb`).
    package init(noColor: Bool, mouse: Bool = false) throws(TerminalError) {
        self.mouse = mouse
        guard isatty(STDIN_FILENO) == 1 else { throw .inputNotATerminal }
        // Before newterm, so ncurses picks the wide-character, UTF-8 aware code paths.
        setlocale(LC_ALL, "")
        tf_unblock_sigwinch()
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty else { throw .unknownTerminal("") }
        switch tf_terminal_can_address_cursor(term) {
        case 1: break
        case 0: throw .cannotAddressCursor(term)
        default: throw .unknownTerminal(term)
        }
        // Before ncurses changes the terminal's modes: a signal from here on puts them back.
        FatalSignals.install()
        FatalSignals.rememberTerminal()
        let replacedSuspendDisposition = Self.recordSuspendSignal()
        // newterm (unlike initscr) returns NULL for an unknown TERM instead of exiting.
        // The two FILE streams live as long as the process: closing them would close the
        // standard descriptors themselves.
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r"),
            let screen = newterm(nil, output, input)
        else {
            FatalSignals.forgetTerminal()
            Self.putBack(replacedSuspendDisposition)
            throw .unknownTerminal(term)
        }
        self.screen = screen
        self.replacedSuspendDisposition = replacedSuspendDisposition
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        // Ctrl-Z as a key (see the shim). Should that fail, Ctrl-Z still stops the dashboard
        // through the SIGTSTP the terminal sends, recorded for the loop.
        let suspendKey = tf_take_suspend_character(STDOUT_FILENO)
        self.suspendKey = suspendKey < 0 ? nil : UInt32(suspendKey)
        keypad(tf_stdscr(), true)
        nodelay(tf_stdscr(), true)
        curs_set(0)
        // ESC alone must not wait ncurses' default second for a following escape sequence.
        set_escdelay(25)
        if !noColor, has_colors() {
            start_color()
            use_default_colors()
        }
        depth = noColor || !has_colors() ? .monochrome : ColorDepth(terminalColors: Int(tf_colors()))
        glyphs = tf_locale_is_utf8() != 0 ? .unicode : .ascii
        enableMouse()
    }

    /// When asked for: the first button's presses and the wheel, reported at once (no wait to
    /// tell a click from a double click). ncurses sends the terminal's own request (xterm's
    /// SGR 1006 coordinates when terminfo's `XM` names them, so wide screens work) and decodes
    /// the replies as KEY_MOUSE.
    private func enableMouse() {
        guard mouse else { return }
        mouseinterval(0)
        mousemask(tf_dashboard_mouse_events(), nil)
    }

    /// The terminal stops reporting the mouse: the shell, after a suspend or the exit, must not
    /// receive escape sequences for each click.
    private func disableMouse() {
        guard mouse else { return }
        mousemask(0, nil)
    }

    /// The terminal's size in cells right now.
    package var size: GridSize {
        GridSize(width: Int(tf_maxx(tf_stdscr())), height: Int(tf_maxy(tf_stdscr())))
    }

    /// Catches up with a resize ncurses was not told about (SIGWINCH lost or blocked): asks the
    /// kernel for the size and resizes ncurses' screens if it differs. Returns whether it did.
    package func followKernelSize() -> Bool {
        let rows = tf_window_rows(STDOUT_FILENO), columns = tf_window_cols(STDOUT_FILENO)
        guard rows > 0, columns > 0, is_term_resized(rows, columns) else { return false }
        resizeterm(rows, columns)
        return true
    }

    /// Ctrl-Z: gives the terminal back (shell modes, cursor, main screen), stops the process
    /// with SIGTSTP's default action so the shell sees it stopped, and, after `fg`, takes the
    /// terminal again. Called by the loop, outside any signal handler.
    ///
    /// `wholeJob` (the suspend key) stops every process of the job, as the terminal's own
    /// SIGTSTP does: the dashboard piped into `tee`, or run by a script, stops with them, and the
    /// shell sees the job stopped. Otherwise (a SIGTSTP someone sent) only this process stops:
    /// the sender chose whom to stop.
    package func suspend(wholeJob: Bool) {
        guard !restored else { return }
        disableMouse()
        curs_set(1)
        endwin()
        var ours = sigaction(), byDefault = sigaction()
        byDefault.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&byDefault.sa_mask)
        sigaction(SIGTSTP, &byDefault, &ours)
        // Either way the stop comes before the next line: the loop runs on the main thread, the
        // process's first, which is where Linux delivers a signal a process sends itself when
        // that thread does not block it.
        if wholeJob { kill(0, SIGTSTP) } else { raise(SIGTSTP) }
        // Here after SIGCONT (`fg`).
        sigaction(SIGTSTP, &ours, nil)
        // The shell may have changed the modes while the process was stopped: a crash from now
        // on restores the ones it left.
        FatalSignals.rememberTerminal()
        _ = followKernelSize()
        curs_set(0)
        refresh()
        enableMouse()
    }

    /// Gives the terminal back as it was: shell modes, cursor, main screen.
    package func restore() {
        guard !restored else { return }
        restored = true
        disableMouse()
        curs_set(1)
        endwin()
        delscreen(screen)
        FatalSignals.forgetTerminal()
        giveBackSuspendSignal()
    }

    /// Has SIGTSTP recorded for the loop (the handler its ``SignalWatcher`` uses) from before
    /// ncurses starts until ``restore()``, unless the parent left the signal ignored; returns
    /// the disposition it replaced.
    ///
    /// Before `newterm`: ncurses takes SIGTSTP there when it finds the default action, then
    /// sets it to SIG_IGN for each frame it paints (doupdate), and the kernel drops a signal that
    /// is ignored when it is sent: a `kill -TSTP` that came during a frame was lost and the
    /// dashboard ran on. When it finds another disposition, ncurses leaves SIGTSTP alone for the
    /// rest of the process. Until the restore: a SIGTSTP that comes before the loop watches or
    /// after it stopped is kept, never acted on by the default action with the dashboard on
    /// screen (the loop suspends at its first turn; the restore stops the process once the
    /// terminal is given back).
    private static func recordSuspendSignal() -> sigaction? {
        var replaced = sigaction()
        return tf_record_suspend_signal(&replaced) == 1 ? replaced : nil
    }

    /// Puts back SIGTSTP's disposition from before the screen.
    private static func putBack(_ disposition: sigaction?) {
        guard var disposition else { return }
        sigaction(SIGTSTP, &disposition, nil)
    }

    /// Gives SIGTSTP back as it was; a SIGTSTP recorded since the loop stopped watching stops the
    /// process now, with the terminal already given back.
    private func giveBackSuspendSignal() {
        guard replacedSuspendDisposition != nil else { return }
        Self.putBack(replacedSuspendDisposition)
        replacedSuspendDisposition = nil
        if tf_take_suspend() != 0 { raise(SIGTSTP) }
    }
}
