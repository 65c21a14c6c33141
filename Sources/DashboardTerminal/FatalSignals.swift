import CNcurses

/// Makes every signal that would end the process end it cleanly: the terminal restored when a
/// ``TerminalScreen`` is up, a crash still reported by Swift's backtracer, and then death by
/// the signal itself, so the shell sees 128 + its number — never a process that keeps running
/// after a signal sent with `kill`, nor a shell left in raw mode.
///
/// The dashboard's loop watches the signals a program can end gracefully on (SIGINT, SIGTERM,
/// SIGHUP, SIGUSR1, ...) while it runs; this covers the rest of the time and the signals that
/// cannot wait for the loop (SIGSEGV, SIGABRT, SIGQUIT, ...). Signals the parent left ignored
/// stay ignored.
package enum FatalSignals {
    /// Installs the handlers; calls after the first do nothing. Call on the main thread, first
    /// thing in the program (``TerminalScreen`` calls it too).
    package static func install() {
        tf_install_fatal_signal_handlers()
    }

    // Every call into the shim's signal memory stays in this file: each Swift file that calls a
    // header's `static inline` function gets its own copy of it, and with it of its statics.

    /// Saves the terminal's modes for the handler to restore. Call before ncurses changes them.
    static func rememberTerminal() {
        tf_remember_terminal()
    }

    /// The terminal is back as it was: a signal from now on has nothing to restore.
    static func forgetTerminal() {
        tf_forget_terminal()
    }
}
